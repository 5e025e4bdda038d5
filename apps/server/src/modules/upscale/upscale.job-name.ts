/** Queue name of the upscale/retouch job. */
export const UPSCALE_JOB = 'upscale';
