import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

/**
 * Fake Kakao, Naver and Google sign-in servers on one 127.0.0.1 port (issue 14, decision 021), each
 * speaking its provider's documented endpoints, for the social sign-in adapters' contract tests and the
 * Playwright spec. Point KAKAO_BASE_URL, KAKAO_API_BASE_URL, NAVER_BASE_URL, NAVER_API_BASE_URL at
 * `origin`, GOOGLE_JWKS_URL at `${origin}/oauth2/v3/certs`.
 *
 * Kakao Login REST API:
 *   GET  /oauth/authorize   client_id, redirect_uri, response_type=code, state, scope, code_challenge(+_method S256)
 *                           → 302 redirect_uri?code&state (the user `users.kakao` has "agreed")
 *   POST /oauth/token       form: grant_type, client_id, client_secret, redirect_uri, code, code_verifier
 *                           → {access_token, token_type, expires_in, refresh_token}; errors: 400/401
 *                           {error, error_description, error_code: KOE…} (a code works once: KOE320 on replay)
 *   GET  /v2/user/me        Bearer → {id, kakao_account: {email, is_email_valid, is_email_verified, profile}}
 * Naver Login API:
 *   GET  /oauth2.0/authorize  response_type=code, client_id, redirect_uri, state → 302 redirect_uri?code&state
 *   POST /oauth2.0/token      grant_type, client_id, client_secret, code, state → tokens, or HTTP 200 with
 *                             {error, error_description} (as Naver answers errors)
 *   GET  /v1/nid/me           Bearer → {resultcode: "00", message: "success", response: {id, email, nickname}}
 * Google:
 *   GET  /oauth2/v3/certs     the JWKS (RS256 keys with kid); `signIdToken` signs credentials with it.
 * Test control: PUT /__fake/users/kakao|naver {…} sets the next user (for the fake run as its own process).
 */

export interface FakeKakaoUser {
  id: number;
  email?: string;
  isEmailValid?: boolean;
  isEmailVerified?: boolean;
  nickname?: string;
}

export interface FakeNaverUser {
  id: string;
  email?: string;
  nickname?: string;
}

export interface FakeSocialOptions {
  kakao: { clientId: string; clientSecret: string };
  naver: { clientId: string; clientSecret: string };
  google: { clientId: string };
  /** Google issuer claim of `signIdToken` (default https://accounts.google.com). */
  googleIssuer?: string;
}

interface IssuedCode {
  provider: 'kakao' | 'naver';
  redirectUri: string;
  state: string;
  challenge: string | null;
  user: FakeKakaoUser | FakeNaverUser;
  used: boolean;
}

export interface FakeSocial {
  origin: string;
  /** The user who "signs in" at the next authorize request of each provider (change it between tests). */
  users: { kakao: FakeKakaoUser; naver: FakeNaverUser };
  /** Token requests seen (form bodies), for assertions on what our client sent. */
  tokenRequests: { provider: 'kakao' | 'naver'; body: Record<string, string> }[];
  /** Authorize requests seen (query parameters). */
  authorizeRequests: { provider: 'kakao' | 'naver'; query: Record<string, string> }[];
  /**
   * Signs a Google ID token with the fake's JWKS key (or `key: 'foreign'`, one the JWKS does not hold).
   * Defaults: iss, aud = the client id, iat now, exp in one hour; `claims` override or add.
   */
  signIdToken(claims: Record<string, unknown>, opts?: { key?: 'jwks' | 'foreign' }): Promise<string>;
  close(): Promise<void>;
}

async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
  res.end(JSON.stringify(body));
}

/** Starts the fake on 127.0.0.1:`port` (0 = a free port). */
export async function startFakeSocial(opts: FakeSocialOptions, port = 0): Promise<FakeSocial> {
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, { provider: 'kakao' | 'naver'; user: FakeKakaoUser | FakeNaverUser }>();
  const tokenRequests: FakeSocial['tokenRequests'] = [];
  const authorizeRequests: FakeSocial['authorizeRequests'] = [];
  const users: FakeSocial['users'] = {
    kakao: { id: 4_000_001, email: 'kakao.user@kakao.example', isEmailValid: true, isEmailVerified: true, nickname: '카카오 사용자' },
    naver: { id: 'naver-sub-1', email: 'naver.user@naver.com', nickname: '네이버 사용자' },
  };
  const jwksKey = await generateKeyPair('RS256', { extractable: true });
  const foreignKey = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(jwksKey.publicKey)), kid: 'fake-google-1', alg: 'RS256', use: 'sig' };

  const authorize = (provider: 'kakao' | 'naver', url: URL, res: ServerResponse) => {
    const q = Object.fromEntries(url.searchParams);
    authorizeRequests.push({ provider, query: q });
    const cfg = opts[provider];
    if (q.client_id !== cfg.clientId || q.response_type !== 'code' || !q.redirect_uri) return json(res, 400, { error: 'invalid_request', error_description: 'bad client_id, response_type or redirect_uri' });
    if (provider === 'kakao' && q.code_challenge && q.code_challenge_method !== 'S256') return json(res, 400, { error: 'invalid_request', error_description: 'code_challenge_method' });
    const code = randomBytes(16).toString('base64url');
    codes.set(code, { provider, redirectUri: q.redirect_uri, state: q.state ?? '', challenge: q.code_challenge ?? null, user: { ...users[provider] }, used: false });
    const back = new URL(q.redirect_uri);
    back.searchParams.set('code', code);
    if (q.state) back.searchParams.set('state', q.state);
    res.writeHead(302, { location: back.toString() });
    res.end();
  };

  const token = async (provider: 'kakao' | 'naver', req: IncomingMessage, res: ServerResponse) => {
    const body = await readForm(req);
    tokenRequests.push({ provider, body });
    const cfg = opts[provider];
    // Kakao answers errors with 400/401; Naver with HTTP 200 and an error body.
    const fail = (status: number, error: string, description: string, kakaoCode: string) =>
      provider === 'kakao' ? json(res, status, { error, error_description: description, error_code: kakaoCode }) : json(res, 200, { error, error_description: description });
    if (body.grant_type !== 'authorization_code') return fail(400, 'unsupported_grant_type', 'grant_type', 'KOE010');
    if (body.client_id !== cfg.clientId || body.client_secret !== cfg.clientSecret) return fail(401, 'invalid_client', 'Bad client credentials', 'KOE010');
    const issued = body.code ? codes.get(body.code) : undefined;
    if (!issued || issued.provider !== provider) return fail(400, 'invalid_grant', 'authorization code not found', 'KOE320');
    if (issued.used) return fail(400, 'invalid_grant', 'authorization code already used', 'KOE320');
    issued.used = true; // single use, checked and set without an await in between
    if (provider === 'kakao' && body.redirect_uri !== issued.redirectUri) return fail(400, 'invalid_grant', 'redirect_uri mismatch', 'KOE303');
    if (provider === 'naver' && body.state !== issued.state) return fail(400, 'invalid_request', 'state mismatch', '');
    if (issued.challenge) {
      const expected = body.code_verifier ? createHash('sha256').update(body.code_verifier).digest('base64url') : '';
      if (expected !== issued.challenge) return fail(400, 'invalid_grant', 'PKCE verification failed', 'KOE322');
    }
    const access = randomBytes(24).toString('base64url');
    tokens.set(access, { provider, user: issued.user });
    return json(res, 200, { access_token: access, token_type: 'bearer', refresh_token: randomBytes(24).toString('base64url'), expires_in: 21599 });
  };

  const bearer = (req: IncomingMessage) => (req.headers.authorization ?? '').replace(/^Bearer /, '');

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    void (async () => {
      const route = `${req.method} ${url.pathname}`;
      if (route === 'GET /oauth/authorize') return authorize('kakao', url, res);
      if (route === 'GET /oauth2.0/authorize') return authorize('naver', url, res);
      if (route === 'POST /oauth/token') return token('kakao', req, res);
      if (route === 'POST /oauth2.0/token') return token('naver', req, res);
      if (route === 'GET /v2/user/me' || route === 'POST /v2/user/me') {
        const t = tokens.get(bearer(req));
        if (!t || t.provider !== 'kakao') return json(res, 401, { msg: 'this access token does not exist', code: -401 });
        const u = t.user as FakeKakaoUser;
        return json(res, 200, {
          id: u.id,
          connected_at: new Date().toISOString(),
          kakao_account: {
            profile_nickname_needs_agreement: false,
            profile: { nickname: u.nickname },
            has_email: Boolean(u.email),
            email_needs_agreement: false,
            ...(u.email ? { email: u.email, is_email_valid: u.isEmailValid ?? true, is_email_verified: u.isEmailVerified ?? true } : {}),
          },
        });
      }
      if (route === 'GET /v1/nid/me') {
        const t = tokens.get(bearer(req));
        if (!t || t.provider !== 'naver') return json(res, 401, { resultcode: '024', message: 'Authentication failed' });
        const u = t.user as FakeNaverUser;
        return json(res, 200, { resultcode: '00', message: 'success', response: { id: u.id, nickname: u.nickname, ...(u.email ? { email: u.email } : {}) } });
      }
      if (route === 'GET /oauth2/v3/certs') return json(res, 200, { keys: [jwk] });
      // Test control (not a provider endpoint): the next user of a provider, for a fake in another process.
      if (route === 'PUT /__fake/users/kakao' || route === 'PUT /__fake/users/naver') {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeKakaoUser & FakeNaverUser;
        if (url.pathname.endsWith('kakao')) users.kakao = body;
        else users.naver = body;
        return json(res, 200, { ok: true });
      }
      json(res, 404, { error: 'not_found' });
    })().catch((err: unknown) => json(res, 500, { error: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    users,
    tokenRequests,
    authorizeRequests,
    async signIdToken(claims, o = {}) {
      const key: CryptoKey = o.key === 'foreign' ? foreignKey.privateKey : jwksKey.privateKey;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: opts.googleIssuer ?? 'https://accounts.google.com', aud: opts.google.clientId, iat: now, exp: now + 3600, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: 'fake-google-1', typ: 'JWT' })
        .sign(key);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
