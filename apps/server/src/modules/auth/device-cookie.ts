import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Device cookies (OWASP "Slow Down Online Guessing Attacks with Device Cookies"): issued at every
 * successful login, they mark a browser that has proved it knows the account's password. A login
 * presenting a valid device cookie of that account is throttled by its own per-device counter instead of
 * the per-IP and per-account counters, so an attacker's failures — even behind the owner's NAT address —
 * do not slow the owner down. The cookie is stateless: `<userId>.<nonce>.<issuedAt s>.<HMAC-SHA256>`,
 * signed with a key derived from APP_SECRET (rotating APP_SECRET invalidates every device cookie).
 */
export const DEVICE_COOKIE = 'dewy_device';
/**
 * The cookie's path: every `/api/auth/*` route, so sign-up and social sign-in see the browser too (the
 * sign-in history, decision 031), not only login. Until decision 031 it was `/api/auth/login`
 * (LEGACY_DEVICE_COOKIE_PATH): a login clears that copy when it issues the new one.
 */
export const DEVICE_COOKIE_PATH = '/api/auth';
export const LEGACY_DEVICE_COOKIE_PATH = '/api/auth/login';
/** How long a device stays known without a new login (ms). */
export const DEVICE_COOKIE_MAX_AGE_MS = 180 * 86_400_000;

export interface DeviceIdentity {
  userId: number;
  /** Random per issue; names the device's own login counter. */
  nonce: string;
}

/** The device-cookie signing key: HMAC(APP_SECRET, label), so it differs from the signed-URL key. */
export function deviceCookieKey(appSecret: string): Buffer {
  return createHmac('sha256', appSecret).update('dewy:device-cookie:v1').digest();
}

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

/**
 * A new device cookie value for `userId`.
 * @param key from `deviceCookieKey`
 * @param nowMs issue time (ms since epoch)
 */
export function issueDeviceCookie(key: Buffer, userId: number, nowMs = Date.now()): string {
  return issueDevice(key, userId, nowMs).value;
}

/** Like `issueDeviceCookie`, with the new cookie's nonce (what the sign-in history records). */
export function issueDevice(key: Buffer, userId: number, nowMs = Date.now()): { value: string; nonce: string } {
  const nonce = randomBytes(16).toString('base64url');
  const payload = `${userId}.${nonce}.${Math.floor(nowMs / 1000)}`;
  return { value: `${payload}.${sign(key, payload)}`, nonce };
}

/**
 * The identity in a device cookie, or null when it is missing, malformed, wrongly signed (constant-time
 * comparison) or older than DEVICE_COOKIE_MAX_AGE_MS. Never throws.
 */
export function readDeviceCookie(key: Buffer, value: string | undefined, nowMs = Date.now()): DeviceIdentity | null {
  if (!value || value.length > 200) return null;
  const m = /^(\d{1,10})\.([\w-]{22})\.(\d{1,12})\.([\w-]{43})$/.exec(value);
  if (!m) return null;
  const [, userId, nonce, issuedAt, mac] = m as unknown as [string, string, string, string, string];
  const expected = Buffer.from(sign(key, `${userId}.${nonce}.${issuedAt}`));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const ageMs = nowMs - Number(issuedAt) * 1000;
  if (ageMs < -60_000 || ageMs > DEVICE_COOKIE_MAX_AGE_MS) return null;
  return { userId: Number(userId), nonce };
}
