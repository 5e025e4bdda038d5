// First: zod's settings must be in place before any schema parses (see zod-config.ts).
import './zod-config';
export * from './errors';
export * from './constants';
export * from './upscale';
export * from './auth';
export * from './images';
export * from './messages';
export * from './jobs';
export * from './text';
export * from './billing';
export * from './face-edit';
export * from './notices';
export * from './site';
