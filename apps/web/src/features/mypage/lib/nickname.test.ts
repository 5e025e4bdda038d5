import { AUTH_LIMITS, UpdateProfileRequestSchema } from '@dewy/contracts';
import { describe, expect, it } from 'vitest';
import { nicknameProblem } from './nickname';

describe('nickname rules (same as sign-up name)', () => {
  it('accepts a trimmed name up to the limit', () => {
    expect(nicknameProblem('듀이')).toBeNull();
    expect(nicknameProblem('  Dewy Kim  ')).toBeNull();
    expect(nicknameProblem('a'.repeat(AUTH_LIMITS.nameMax))).toBeNull();
  });

  it('refuses empty, too long and control characters', () => {
    expect(nicknameProblem('')).toBe('required');
    expect(nicknameProblem('   ')).toBe('required');
    expect(nicknameProblem('a'.repeat(AUTH_LIMITS.nameMax + 1))).toBe('tooLong');
    expect(nicknameProblem('bad\u0000name')).toBe('invalid');
    expect(nicknameProblem('tab\tname')).toBe('invalid');
    expect(nicknameProblem('\ud800')).toBe('invalid');
  });

  it('agrees with the contract the server validates with', () => {
    for (const v of ['듀이', '  x ', '', '   ', 'a'.repeat(50), 'a'.repeat(51), 'x\u0007', ' a'.repeat(30)]) {
      expect(nicknameProblem(v) === null, JSON.stringify(v)).toBe(UpdateProfileRequestSchema.safeParse({ nickname: v }).success);
    }
  });
});
