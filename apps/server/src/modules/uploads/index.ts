/**
 * modules/uploads — confirmed uploads, their checks and re-encoding, image URLs of stored files, masks.
 * Below the kernel, the tools, the images and the notices; above the settings. This index is its public face (decision 039): what routes.ts, tools.ts, the entry points, the other modules and the tests outside this folder import. Files of the module and the tests beside them use its internals.
 */

// Routes (routes.ts).
export { uploadsRoutes } from './uploads.routes';
export { readMultipartFile } from './multipart-file';

// Stored files (the kernel, the tools, the images): confirmed uploads, direct uploads, the purge.
export { getConfirmedUpload, storeDirectUpload, discardDirectUpload, purgeStalePendingUploads } from './uploads.service';
export { prepareOriginal, webpToPng, type PreparedOriginal } from './image-reencode';
export { maskHasPaint } from './mask';

// URLs of stored files: signed view URLs and the caller's own keys.
export { viewUrl, keyFromImageUrl, ownedKeyFromUrl, userPrefix } from './image-urls';
