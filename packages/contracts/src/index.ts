export * from './errors';
export * from './constants';
export * from './upscale';
export * from './auth';
export * from './images';
export * from './messages';
