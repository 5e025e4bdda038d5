import { describe, expect, it } from 'vitest';
import { DEVICE_COOKIE_MAX_AGE_MS, deviceCookieKey, issueDeviceCookie, readDeviceCookie } from './device-cookie';

describe('device cookies (OWASP)', () => {
  const key = deviceCookieKey('x'.repeat(32));
  it('round-trips the user id with a fresh nonce per issue', () => {
    const a = issueDeviceCookie(key, 42);
    const b = issueDeviceCookie(key, 42);
    expect(readDeviceCookie(key, a)).toMatchObject({ userId: 42 });
    expect(readDeviceCookie(key, a)!.nonce).not.toBe(readDeviceCookie(key, b)!.nonce);
  });

  it('refuses tampered, foreign-key, expired and malformed values', () => {
    const now = Date.now();
    const v = issueDeviceCookie(key, 7, now);
    const [, nonce, issued, mac] = v.split('.');
    expect(readDeviceCookie(key, `8.${nonce}.${issued}.${mac}`)).toBeNull();
    expect(readDeviceCookie(deviceCookieKey('y'.repeat(32)), v)).toBeNull();
    expect(readDeviceCookie(key, v, now + DEVICE_COOKIE_MAX_AGE_MS + 1000)).toBeNull();
    expect(readDeviceCookie(key, v, now + DEVICE_COOKIE_MAX_AGE_MS - 1000)).not.toBeNull();
    for (const bad of [undefined, '', 'x', `${v}.extra`, `${v}\u0000`, 'a'.repeat(500)]) expect(readDeviceCookie(key, bad)).toBeNull();
  });
});
