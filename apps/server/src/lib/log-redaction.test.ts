import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrizzleQueryError } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { TEST_DATABASES } from '../../test/helpers/databases';
import { makeJpeg, multipartBody } from '../../test/helpers/images';
import { createTestApp, verifyFromOutbox, type TestApp } from '../../test/helpers/test-app';
import { buildApp } from '../app';
import { SESSION_COOKIE, DEVICE_COOKIE } from '../modules/auth';
import { DEVICE_COOKIE_NAME, REDACTED, SESSION_COOKIE_NAME, redactUrl, safeErrorMessage, scrubSecrets, serializeError } from './log-redaction';

const HASH = '$argon2id$v=19$m=19456,t=2,p=1$LWvNah8h0v/TkVwdDOFW6g$sbhhVgZt30rY7fC6dazauzYd9b7VDbGIMjNVBDeoZTc';

/** A DrizzleQueryError as drizzle throws it for a failed insert of a user (its params carry the hash). */
function failedInsert(cause: Error & { code?: string } = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021', detail: `Failing row contains (1, a@b.co, ${HASH}).` })) {
  return new DrizzleQueryError('insert into "users" ("email", "nickname", "password_hash") values ($1, $2, $3)', ['a@b.co', 'a\u0000b', HASH], cause);
}

describe('log redaction helpers', () => {
  it('redactUrl hides signatures, credentials and tokens, also percent-encoded inside another URL', () => {
    expect(redactUrl('/api/storage/file?key=u%2F1%2Fa.jpg&exp=99&sig=abcDEF123')).toBe(`/api/storage/file?key=u%2F1%2Fa.jpg&exp=99&sig=${REDACTED}`);
    const s3 = 'https://b.s3.ap-northeast-2.amazonaws.com/u/1/a.jpg?X-Amz-Algorithm=AWS4&X-Amz-Credential=AKIA%2F2026&X-Amz-Signature=deadbeef&X-Amz-Security-Token=tok&x-id=GetObject';
    const r = redactUrl(s3);
    for (const secret of ['AKIA', 'deadbeef', '=tok']) expect(r).not.toContain(secret);
    expect(r).toContain('X-Amz-Algorithm=AWS4');
    expect(r).toContain('x-id=GetObject');
    const nested = `/api/image/download?url=${encodeURIComponent('/api/storage/file?key=k&exp=1&sig=s3cr3tsig')}`;
    expect(redactUrl(nested)).not.toContain('s3cr3tsig');
    expect(redactUrl('/api/auth/check?token=t0k3n&a=1')).toBe(`/api/auth/check?token=${REDACTED}&a=1`);
    expect(redactUrl('/upscale?signal=1')).toBe('/upscale?signal=1');
  });

  it('scrubSecrets removes argon2 hashes, our session cookie and drizzle params from any line', () => {
    const line = JSON.stringify({ msg: `x ${HASH} y`, h: `${SESSION_COOKIE_NAME}=abc123; locale=ko`, c: { [SESSION_COOKIE_NAME]: 'abc123' }, e: 'Failed query: select 1\nparams: a,"b",c' });
    const out = scrubSecrets(line);
    expect(out).not.toContain('$argon2');
    expect(out).not.toContain('abc123');
    expect(out).not.toContain('"b"');
    expect(out).toContain('locale=ko');
    expect(() => JSON.parse(out)).not.toThrow();
    expect(SESSION_COOKIE_NAME).toBe(SESSION_COOKIE);
    const device = scrubSecrets(JSON.stringify({ h: `${DEVICE_COOKIE_NAME}=dev-secret-42; locale=en`, c: { [DEVICE_COOKIE_NAME]: 'dev-secret-42' } }));
    expect(device).not.toContain('dev-secret-42');
    expect(DEVICE_COOKIE_NAME).toBe(DEVICE_COOKIE);
  });

  it('a failed drizzle query is logged with its SQL and the driver code, never its params or the row detail', () => {
    const err = failedInsert();
    const s = serializeError(err) as Record<string, unknown>;
    const text = JSON.stringify(s);
    expect(text).not.toContain('$argon2');
    expect(text).not.toContain('a\\u0000b');
    expect(text).not.toContain('params');
    expect(text).not.toContain('Failing row');
    expect(s.query).toBe('insert into "users" ("email", "nickname", "password_hash") values ($1, $2, $3)');
    expect(s.message).toBe(`Failed query: ${s.query as string}`);
    expect(s.cause).toMatchObject({ code: '22021', message: 'invalid byte sequence for encoding "UTF8": 0x00' });
    expect(String(s.stack)).toMatch(/^Error: Failed query: insert into "users"/);
    expect(safeErrorMessage(err)).toBe(s.message);
    // an error wrapping one, or copying its message, loses the params too
    const wrapped = new Error(`register failed: ${err.message}`, { cause: err });
    expect(JSON.stringify(serializeError(wrapped))).not.toContain('$argon2');
  });
});

/** An app on `kind` whose log lines (level trace: everything) are kept in memory. */
async function appWithCapturedLog(t: TestApp): Promise<{ app: FastifyInstance; lines: () => string }> {
  let out = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      out += chunk.toString();
      cb();
    },
  });
  const app = await buildApp(t.ctx, { logger: { level: 'trace', stream } });
  return { app, lines: () => out };
}

describe.each(TEST_DATABASES)('what the API log holds on $name', (kind) => {
  let t: TestApp;
  let app: FastifyInstance;
  let lines: () => string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ app, lines } = await appWithCapturedLog(t));
    app.get('/test/failing-query', async () => {
      throw failedInsert(Object.assign(new Error('connection reset'), { code: '08006' }));
    });
    app.get('/test/failing-text', async () => {
      throw failedInsert();
    });
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  it('a register with a NUL name, a login, a signed file GET and the download proxy leave no hash, token or signature', async () => {
    const email = `log-${Date.now()}@example.com`;
    const password = 'correct horse battery';
    const nul = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { name: 'a\u0000b', email, password } });
    expect(nul.statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/api/auth/register', payload: { name: 'Logger', email, password } })).statusCode).toBe(201);
    await verifyFromOutbox(t.app, email); // uploads need a verified e-mail (decision 032)
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    expect(login.statusCode).toBe(200);
    const token = login.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
    const cookie = `${SESSION_COOKIE}=${token}`;
    expect((await app.inject({ url: '/api/auth/check', headers: { cookie, authorization: 'Bearer secret-bearer' } })).statusCode).toBe(200);

    const mp = multipartBody('image', 'p.jpg', 'image/jpeg', await makeJpeg(120, 80));
    const up = await app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload });
    const imageUrl: string = up.json().imageUrl;
    const sig = new URL(imageUrl, 'http://x').searchParams.get('sig')!;
    expect(sig.length).toBeGreaterThan(10);
    expect((await app.inject({ url: imageUrl })).statusCode).toBe(200);
    expect((await app.inject({ url: `/api/image/download?url=${encodeURIComponent(imageUrl)}`, headers: { cookie } })).statusCode).toBe(200);
    const forged = imageUrl.replace(/sig=[^&]+/, 'sig=forgedsignaturevalue');
    expect((await app.inject({ url: forged })).statusCode).toBe(403);

    const log = lines();
    expect(log).toContain('/api/storage/file?'); // the requests were logged …
    expect(log).toContain('request refused');
    expect(log).not.toContain('$argon2'); // … without what they carried
    expect(log).not.toContain(token);
    expect(log).not.toContain(sig);
    expect(log).not.toContain('forgedsignaturevalue');
    expect(log).not.toContain(encodeURIComponent(sig));
    expect(log).not.toContain('secret-bearer');
    expect(log).not.toContain(password);
  });

  it('a failing query (500) and a refused character (400) log the SQL text and code, never the parameters', async () => {
    const failed = await app.inject({ url: '/test/failing-query' });
    expect(failed.statusCode).toBe(500);
    const refused = await app.inject({ url: '/test/failing-text' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('VALIDATION_FAILED');
    const log = lines();
    expect(log).toContain('insert into \\"users\\"');
    expect(log).toContain('08006');
    expect(log).not.toContain('$argon2');
    expect(log).not.toContain('params:');
    expect(log).not.toContain('Failing row');
  });
});
