import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app';
import { loadConfig } from '../../config';
import { clientKey } from '../../lib/rate-limit';
import { delayAfter } from './login-throttle.service';

const argon = vi.hoisted(() => ({ verifications: 0 }));
vi.mock('./password', async (importOriginal) => {
  const real = await importOriginal<typeof import('./password')>();
  return {
    ...real,
    verifyPassword: async (hashed: string, password: string) => {
      argon.verifications++;
      return real.verifyPassword(hashed, password);
    },
  };
});

describe('TRUST_PROXY', () => {
  const trust = (v: string | undefined) => loadConfig({ NODE_ENV: 'test', ...(v === undefined ? {} : { TRUST_PROXY: v }) }).trustProxy;
  it('is off by default; true means exactly one hop (our one proxy), a number that many hops, else a list of addresses/CIDRs', () => {
    expect(trust(undefined)).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust('true')).toBe(1);
    expect(trust('1')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, 192.168.1.5')).toEqual(['10.0.0.0/8', '192.168.1.5']);
    expect(() => trust('-1')).toThrow(/TRUST_PROXY/);
    expect(() => trust('not an address')).toThrow(/TRUST_PROXY/);
  });
});

describe('rate-limit keys and delays', () => {
  it('counts IPv6 clients per /64 and IPv4-mapped addresses as IPv4', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2::1')).toBe(clientKey('2001:0db8:0001:0002:ffff::9'));
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });

  it('waits nothing below the budget, then base·2^k up to the cap', () => {
    const l = { delayBaseMs: 1000, delayMaxMs: 900_000 };
    expect([4, 5, 6, 7, 8].map((f) => delayAfter(f, 5, l))).toEqual([0, 1000, 2000, 4000, 8000]);
    expect(delayAfter(50, 5, l)).toBe(900_000);
    expect(delayAfter(10_000, 5, l)).toBe(900_000);
  });
});

describe.each(TEST_DATABASES)('X-Forwarded-For behind one trusted proxy on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { TRUST_PROXY: 'true', LOGIN_MAX_FAILURES_PER_IP: '20', LOGIN_DELAY_BASE_SECONDS: '60' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const proxy = '10.0.0.2';
  const viaProxy = (xff: string, email: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: proxy, headers: { 'x-forwarded-for': xff }, payload: { email, password: 'guess-1234' } });

  it('30 requests with a different forged leftmost X-Forwarded-For all count against the address the proxy appended', async () => {
    argon.verifications = 0;
    const client = '203.0.113.77';
    const res = await Promise.all(Array.from({ length: 30 }, (_, i) => viaProxy(`198.18.${i}.${i + 1}, ${client}`, `target${i}@example.com`)));
    expect(argon.verifications).toBe(20);
    expect(res.filter((r) => r.statusCode === 429)).toHaveLength(10);
    // no forged value helps the same client…
    expect((await viaProxy(`5.6.7.8, ${client}`, 'y@example.com')).statusCode).toBe(429);
    // …and another client behind the same proxy is its own address
    expect((await viaProxy('203.0.113.78', 'z@example.com')).statusCode).toBe(401);
  });
});
