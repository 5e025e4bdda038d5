/**
 * The administrator of the e2e server. The administrator is the first account created (user id 1,
 * apps/server/src/policies.ts); global-setup.ts creates this one before any spec runs, so every spec
 * that needs the administrator can sign in as it, whatever order the files run in.
 */
export const ADMIN = { email: 'admin-e2e@example.com', password: 'admin-e2e-password-1', name: 'Dewy 관리자' } as const;
