import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { SocialConfig } from '../../config';
import { AppError } from '../../lib/app-error';
import type { SocialProfile } from './social-provider';

/** Clock skew tolerated on `exp`/`iat`/`nbf` (s). */
const CLOCK_TOLERANCE_S = 30;

/**
 * Verifies Google Identity Services credentials (ID tokens) with jose against Google's JWKS (decision
 * 021; Google "Verify the Google ID token on your server side"): RS256 signature by a key of
 * `GOOGLE_JWKS_URL` (fetched and cached by jose's remote key set, refreshed on an unknown `kid`), `aud` =
 * GOOGLE_CLIENT_ID, `iss` one of Google's issuers, `exp` in the future, a `sub`. The e-mail counts as
 * verified only with `email_verified: true`.
 */
export class GoogleIdTokenVerifier {
  private readonly jwks: JWTVerifyGetKey;

  constructor(private readonly cfg: NonNullable<SocialConfig['google']>) {
    this.jwks = createRemoteJWKSet(new URL(cfg.jwksUrl), { timeoutDuration: 10_000 });
  }

  /**
   * The profile of a valid credential.
   * @throws AppError SOCIAL_AUTH_FAILED (the reason — expired, audience, issuer, signature — in `message`, for the log)
   */
  async verify(credential: string): Promise<SocialProfile> {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(credential, this.jwks, {
        audience: this.cfg.clientId,
        issuer: this.cfg.issuers,
        algorithms: ['RS256'],
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (err) {
      const reason = err instanceof joseErrors.JOSEError ? err.code : 'invalid';
      throw new AppError('SOCIAL_AUTH_FAILED', { message: `google id token: ${reason}` });
    }
    const sub = typeof payload.sub === 'string' ? payload.sub : '';
    if (!sub) throw new AppError('SOCIAL_AUTH_FAILED', { message: 'google id token: no sub' });
    const email = typeof payload.email === 'string' && payload.email.trim() ? payload.email.trim() : null;
    const name = typeof payload.name === 'string' && payload.name.trim() ? payload.name.trim() : null;
    return { provider: 'google', subject: sub, email, emailVerified: Boolean(email && payload.email_verified === true), name };
  }
}
