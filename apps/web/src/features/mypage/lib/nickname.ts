import { AUTH_LIMITS, hasForbiddenCharacters } from '@dewy/contracts';

/** Why a nickname cannot be saved (sign-up's rules for the name, UpdateProfileRequestSchema). */
export type NicknameProblem = 'required' | 'tooLong' | 'invalid';

/**
 * Checks a nickname as the server will: trimmed, 1 to {@link AUTH_LIMITS.nameMax} characters (UTF-16
 * units, as zod counts), no control characters or lone surrogates. @returns null when it is fine
 */
export function nicknameProblem(value: string): NicknameProblem | null {
  if (hasForbiddenCharacters(value)) return 'invalid';
  const trimmed = value.trim();
  if (trimmed.length === 0) return 'required';
  if (trimmed.length > AUTH_LIMITS.nameMax) return 'tooLong';
  return null;
}
