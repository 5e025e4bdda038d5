// arctic's own token request helpers (the ones its Kakao and Naver classes use), so our requests are
// byte-for-byte what arctic sends, only to a configurable endpoint. Not in arctic's index: pinned by the
// adapter tests against the fake servers (decision 021).
import { createOAuth2Request, sendTokenRequest } from 'arctic/dist/request.js';
import { ArcticFetchError, OAuth2RequestError, UnexpectedErrorResponseBodyError, UnexpectedResponseError, type OAuth2Tokens } from 'arctic';
import { AppError } from '../../lib/app-error';

/**
 * POSTs an OAuth 2.0 token request (form body, client credentials in the body as Naver and Kakao
 * require) through arctic and returns its tokens.
 * @throws AppError SOCIAL_AUTH_FAILED with the provider's error code in the message.
 */
export async function requestTokens(provider: string, endpoint: string, body: URLSearchParams): Promise<OAuth2Tokens> {
  try {
    return await sendTokenRequest(createOAuth2Request(endpoint, body));
  } catch (err) {
    throw tokenError(provider, err);
  }
}

function tokenError(provider: string, err: unknown): AppError {
  if (err instanceof OAuth2RequestError) return new AppError('SOCIAL_AUTH_FAILED', { message: `${provider} token: ${err.code}` });
  if (err instanceof ArcticFetchError) return new AppError('SOCIAL_AUTH_FAILED', { message: `${provider} token: unreachable` });
  if (err instanceof UnexpectedResponseError || err instanceof UnexpectedErrorResponseBodyError) {
    return new AppError('SOCIAL_AUTH_FAILED', { message: `${provider} token: HTTP ${err.status}` });
  }
  return new AppError('SOCIAL_AUTH_FAILED', { message: `${provider} token: ${err instanceof Error ? err.message : 'error'}` });
}

/**
 * GETs a provider's user-info endpoint with the access token and returns its JSON.
 * @throws AppError SOCIAL_AUTH_FAILED on a network failure, a non-200 answer or a non-JSON body.
 */
export async function fetchUserInfo(provider: string, url: string, accessToken: string): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
  } catch {
    throw new AppError('SOCIAL_AUTH_FAILED', { message: `${provider} userinfo: unreachable` });
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new AppError('SOCIAL_AUTH_FAILED', { message: `${provider} userinfo: HTTP ${res.status}` });
  }
  try {
    return await res.json();
  } catch {
    throw new AppError('SOCIAL_AUTH_FAILED', { message: `${provider} userinfo: not JSON` });
  }
}
