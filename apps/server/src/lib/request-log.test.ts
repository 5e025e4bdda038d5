import { describe, expect, it } from 'vitest';
import { isQuietPoll } from './request-log';

const req = (method: string, url: string | undefined) => ({ method, routeOptions: { url } }) as Parameters<typeof isQuietPoll>[0];

describe('the access log of polled routes', () => {
  it('logs a successful session check at debug, and everything else (its failures, other routes) as before', () => {
    expect(isQuietPoll(req('GET', '/api/auth/check'), 200)).toBe(true);
    expect(isQuietPoll(req('GET', '/api/auth/check'), 304)).toBe(true);
    expect(isQuietPoll(req('GET', '/api/auth/check'), 401)).toBe(false);
    expect(isQuietPoll(req('GET', '/api/auth/check'), 500)).toBe(false);
    expect(isQuietPoll(req('POST', '/api/auth/check'), 200)).toBe(false);
    expect(isQuietPoll(req('GET', '/api/auth/login'), 200)).toBe(false);
    expect(isQuietPoll(req('GET', '/api/image/status/:jobId'), 200)).toBe(false);
    expect(isQuietPoll(req('GET', undefined), 404)).toBe(false);
  });
});
