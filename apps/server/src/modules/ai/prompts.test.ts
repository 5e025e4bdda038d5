import { describe, expect, it } from 'vitest';
import { cleanPrompt, rewriteUserText } from './prompts';

describe('prompt clean-up', () => {
  it('drops a wrapping code fence or quotes, keeps inner quotes', () => {
    expect(cleanPrompt('```\na cat, studio light\n```')).toBe('a cat, studio light');
    expect(cleanPrompt('```text\na cat\n```')).toBe('a cat');
    expect(cleanPrompt('"a cat"')).toBe('a cat');
    expect(cleanPrompt('“a cat”')).toBe('a cat');
    expect(cleanPrompt('a "red" cat')).toBe('a "red" cat');
    expect(cleanPrompt('  ')).toBe('');
  });
  it('the rewrite turn names the current prompt and the instruction', () => {
    expect(rewriteUserText('brighter', '')).toBe('Current prompt:\n(empty)\n\nInstruction:\nbrighter');
  });
});
