/**
 * modules/settings — the administrator's settings: maintenance mode and banned keywords. Below the
 * kernel and the tools. This index is its public face (decision 039): what routes.ts, tools.ts, the entry points, the other modules and the tests outside this folder import. Files of the module and the tests beside them use its internals.
 */

// Routes (routes.ts).
export { settingsRoutes } from './settings.routes';

// What the kernel, the tools, the uploads and the flags check.
export { assertNotInMaintenance, maintenanceState, bannedKeywords, clearSettingsCache, type MaintenanceState } from './settings.service';
