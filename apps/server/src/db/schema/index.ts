export * from './users.schema';
export * from './sessions.schema';
export * from './credits.schema';
export * from './images.schema';
export * from './billing.schema';
export * from './affiliate.schema';
export * from './notices.schema';
