import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from './messages';
import { GoogleLinkRequestSchema, GoogleLoginRequestSchema, parseSocialRedirectError, SOCIAL_REDIRECT_ERRORS } from './social';

describe('social sign-in contracts (decision 021)', () => {
  it('a redirect error parameter is one of the catalogue codes, nothing else', () => {
    expect(parseSocialRedirectError('SOCIAL_ACCOUNT_EXISTS')).toBe('SOCIAL_ACCOUNT_EXISTS');
    expect(parseSocialRedirectError('<script>')).toBeNull();
    expect(parseSocialRedirectError('social_account_exists')).toBeNull();
    expect(parseSocialRedirectError(null)).toBeNull();
    for (const code of SOCIAL_REDIRECT_ERRORS) expect(ERROR_MESSAGES[code].ko && ERROR_MESSAGES[code].en).toBeTruthy();
  });
  it('the Google credential is bounded text; link defaults to intent link', () => {
    expect(GoogleLoginRequestSchema.safeParse({ credential: '' }).success).toBe(false);
    expect(GoogleLoginRequestSchema.safeParse({ credential: 'a'.repeat(8193) }).success).toBe(false);
    expect(GoogleLoginRequestSchema.safeParse({ credential: 'a\u0007b' }).success).toBe(false);
    expect(GoogleLinkRequestSchema.parse({ credential: 'x' }).intent).toBe('link');
    expect(GoogleLinkRequestSchema.safeParse({ credential: 'x', intent: 'login' }).success).toBe(false);
  });
});
