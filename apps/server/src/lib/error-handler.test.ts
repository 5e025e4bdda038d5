/**
 * Schema failures name the field and the rule (issue 17): `details[]` carries `field`, `rule` (the zod
 * issue code) and the broken bound, which the page turns into "Password must be at least 8 characters";
 * the answer changes nothing (no account is created).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { AUTH_LIMITS, type ValidationIssueDetail } from '@dewy/contracts';
import { TEST_DATABASES } from '../../test/helpers/databases';
import { createTestApp, type TestApp } from '../../test/helpers/test-app';
import { users } from '../db/schema';

describe.each(TEST_DATABASES)('validation details on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function refused(url: string, payload: unknown, locale = 'en'): Promise<{ message: string; details: ValidationIssueDetail[] }> {
    const res = await t.app.inject({ method: 'POST', url, headers: { 'accept-language': locale }, payload: payload as never });
    expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    return body;
  }

  it('sign-up: each broken rule is named with its field and bound, and nothing is written', async () => {
    const before = (await t.ctx.database.db.select({ n: count() }).from(users))[0]!.n;
    const ok = { name: 'New User', email: 'new.user@example.com', password: 'long-enough-1' };
    const cases: Array<{ payload: unknown; expected: Partial<ValidationIssueDetail> }> = [
      { payload: { ...ok, password: 'short' }, expected: { field: 'password', rule: 'too_small', minimum: AUTH_LIMITS.passwordMin } },
      { payload: { ...ok, password: 'p'.repeat(AUTH_LIMITS.passwordMax + 1) }, expected: { field: 'password', rule: 'too_big', maximum: AUTH_LIMITS.passwordMax } },
      { payload: { ...ok, name: '   ' }, expected: { field: 'name', rule: 'too_small', minimum: 1 } },
      { payload: { ...ok, name: 'n'.repeat(AUTH_LIMITS.nameMax + 1) }, expected: { field: 'name', rule: 'too_big', maximum: AUTH_LIMITS.nameMax } },
      { payload: { ...ok, email: 'not-an-email' }, expected: { field: 'email', rule: 'invalid_format', format: 'email' } },
      { payload: { ...ok, name: 'bad\u0007name' }, expected: { field: 'name', rule: 'custom' } },
      { payload: { name: ok.name, email: ok.email }, expected: { field: 'password', rule: 'invalid_type' } },
    ];
    for (const c of cases) {
      const body = await refused('/api/auth/register', c.payload);
      expect(body.details, JSON.stringify(c.payload)).toContainEqual(expect.objectContaining(c.expected));
      for (const d of body.details) expect(typeof d.message).toBe('string');
    }
    expect((await t.ctx.database.db.select({ n: count() }).from(users))[0]!.n).toBe(before);
  });

  it('login: an empty password and a malformed e-mail are named too, in the caller language at the top', async () => {
    const ko = await refused('/api/auth/login', { email: 'x', password: '' }, 'ko');
    expect(ko.message).toBe('입력값을 확인해주세요.');
    expect(ko.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'email', rule: 'invalid_format' }), expect.objectContaining({ field: 'password', rule: 'too_small', minimum: 1 })]),
    );
  });
});
