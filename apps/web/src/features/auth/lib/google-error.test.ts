import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { googleErrorText } from './google-error';

const t = (k: string, o?: Record<string, unknown>) => (o ? `${k}:${JSON.stringify(o)}` : k);

describe('Google login error text (spec 000 §8)', () => {
  it('shows the server error first', () => {
    expect(googleErrorText(new ApiError(401, 'SOCIAL_AUTH_FAILED', 'x', '소셜 로그인에 실패했습니다.', {}), t)).toBe('소셜 로그인에 실패했습니다.');
  });
  it('else "Google login failed: {details}"', () => {
    expect(googleErrorText(new ApiError(500, undefined, 'HTTP 500', undefined, null), t)).toBe('auth.social.googleFailed:{"details":"HTTP 500"}');
  });
  it('a network failure gives the network text', () => {
    expect(googleErrorText(new ApiError(0, undefined, 'offline', undefined, null), t)).toBe('auth.social.networkError');
  });
});
