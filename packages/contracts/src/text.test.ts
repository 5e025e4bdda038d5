import { describe, expect, it } from 'vitest';
import { LoginRequestSchema, RegisterRequestSchema } from './auth';
import { ConfirmUploadRequestSchema, CreateUpscaleHeadersSchema, ImageDownloadQuerySchema, PresignDownloadRequestSchema, PresignUploadRequestSchema, UpscaleInputSchema } from './images';
import { CONTROL_CHARACTER_MESSAGE, hasForbiddenCharacters, safeText } from './text';
import { SCALE_FACTOR } from './upscale';

const FORBIDDEN = ['\u0000', '\u0001', '\u0008', '\u000B', '\u001B', '\u001F', '\u007F', '\u0080', '\u0085', '\u009F', '\uD800', '\uDFFF'];

describe('control characters (issue 7 item 3)', () => {
  it('refuses C0, DEL, C1 and lone surrogates; TAB/LF/CR only in multi-line text', () => {
    for (const c of FORBIDDEN) {
      expect(hasForbiddenCharacters(`a${c}b`), JSON.stringify(c)).toBe(true);
      expect(hasForbiddenCharacters(`a${c}b`, { multiline: true }), JSON.stringify(c)).toBe(true);
    }
    for (const c of ['\t', '\n', '\r']) {
      expect(hasForbiddenCharacters(`a${c}b`)).toBe(true);
      expect(hasForbiddenCharacters(`a${c}b`, { multiline: true })).toBe(false);
    }
    // ordinary text, Korean, emoji (a valid surrogate pair), NBSP and U+00A0.. stay
    for (const ok of ['Dewy 보정', '😀 smile', 'caf\u00e9\u00a0x', 'https://x.example/a?b=1&c=%00']) {
      expect(hasForbiddenCharacters(ok), ok).toBe(false);
    }
  });

  it('safeText keeps chained checks and reports the field with its message', () => {
    const r = safeText().trim().min(1).max(5).safeParse('  ab\u0000 ');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(CONTROL_CHARACTER_MESSAGE);
    expect(safeText().trim().safeParse('  ok  ')).toEqual({ success: true, data: 'ok' });
  });

  it('every string of the request contracts refuses a NUL, naming the field', () => {
    const cases: Array<[string, { safeParse(v: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } } }, Record<string, unknown>, string]> = [
      ['register name', RegisterRequestSchema, { name: 'a\u0000', email: 'a@b.co', password: 'password-1' }, 'name'],
      ['register email', RegisterRequestSchema, { name: 'a', email: 'a\u0000@b.co', password: 'password-1' }, 'email'],
      ['register password', RegisterRequestSchema, { name: 'a', email: 'a@b.co', password: 'password-1\u0000' }, 'password'],
      ['login email', LoginRequestSchema, { email: 'a@b.co\u0000', password: 'password-1' }, 'email'],
      ['login password', LoginRequestSchema, { email: 'a@b.co', password: '\u0000' }, 'password'],
      ['presign filename', PresignUploadRequestSchema, { filename: 'a\u0000.jpg', mime: 'image/jpeg', contentLength: 1, checksumSha256: `${'A'.repeat(43)}=` }, 'filename'],
      ['confirm key', ConfirmUploadRequestSchema, { key: 'u/1/a\u0000' }, 'key'],
      ['presign-download url', PresignDownloadRequestSchema, { url: '/api/storage/file?key=\u0000' }, 'url'],
      ['download query url', ImageDownloadQuerySchema, { url: '\u0000' }, 'url'],
      ['idempotency key', CreateUpscaleHeadersSchema, { 'idempotency-key': 'abcdefgh\u0085' }, 'idempotency-key'],
      ['upscale image', UpscaleInputSchema, { image: '/x\u0000' }, 'image'],
      ['upscale prompt', UpscaleInputSchema, { image: '/x', prompt: 'a\u0000' }, 'prompt'],
      ['upscale filter_prompt', UpscaleInputSchema, { image: '/x', filter_prompt: 'studio\nfilter' }, 'filter_prompt'],
    ];
    for (const [name, schema, value, field] of cases) {
      const r = schema.safeParse(value);
      expect(r.success, name).toBe(false);
      expect(r.error!.issues.map((i) => i.path.join('.')), name).toContain(field);
    }
    expect(UpscaleInputSchema.safeParse({ image: '/x', prompt: 'line one\n\tline two\r\n' }).success).toBe(true);
  });
});

describe('scale_factor (issue 7 item 10)', () => {
  it('accepts 0.1..2 and refuses anything the engine cannot honour', () => {
    for (const ok of [0.1, 0.5, 1, 1.25, 2]) expect(UpscaleInputSchema.safeParse({ image: '/x', scale_factor: ok }).success, String(ok)).toBe(true);
    for (const bad of [0.001, 0, 0.05, 0.0999, 2.01, -1, Number.NaN, Number.POSITIVE_INFINITY, 'NaN', '1', null]) {
      expect(UpscaleInputSchema.safeParse({ image: '/x', scale_factor: bad }).success, String(bad)).toBe(false);
    }
    expect(SCALE_FACTOR.min).toBe(0.1);
    expect(UpscaleInputSchema.parse({ image: '/x' }).scale_factor).toBe(SCALE_FACTOR.default);
  });
});
