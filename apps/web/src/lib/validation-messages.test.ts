import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { LoginRequestSchema, RegisterRequestSchema, type ValidationIssueDetail } from '@dewy/contracts';
import en from '../locales/en.json';
import ko from '../locales/ko.json';
import { ApiError } from './api-client';
import { validationMessages, type Translate } from './validation-messages';

async function translator(lng: 'ko' | 'en'): Promise<Translate> {
  const i18n = i18next.createInstance();
  await i18n.init({ lng, resources: { ko: { translation: ko }, en: { translation: en } }, interpolation: { escapeValue: false } });
  return (key, options) => i18n.t(key, options);
}

/** The server's details for a body the schema refuses (the same issue fields lib/error-handler.ts sends). */
function detailsFor(schema: typeof RegisterRequestSchema | typeof LoginRequestSchema, body: unknown): ValidationIssueDetail[] {
  const parsed = schema.safeParse(body);
  if (parsed.success) throw new Error('expected a refusal');
  return parsed.error.issues.map((i) => {
    const p = i as unknown as { minimum?: number | bigint; maximum?: number | bigint; format?: string };
    return {
      field: i.path.join('.'),
      rule: i.code,
      message: i.message,
      ...(p.minimum !== undefined ? { minimum: Number(p.minimum) } : {}),
      ...(p.maximum !== undefined ? { maximum: Number(p.maximum) } : {}),
      ...(typeof p.format === 'string' ? { format: p.format } : {}),
    };
  });
}

function refusal(details: unknown): ApiError {
  return new ApiError(400, 'VALIDATION_FAILED', '입력값을 확인해주세요.', '입력값을 확인해주세요.', { success: false, code: 'VALIDATION_FAILED', details });
}

const ok = { name: 'New User', email: 'new@example.com', password: 'long-enough-1' };

describe('validation messages name the field and the rule', () => {
  const cases: Array<{ body: unknown; ko: string; en: string; schema?: typeof LoginRequestSchema }> = [
    { body: { ...ok, password: 'short' }, ko: '비밀번호: 8자 이상 입력해주세요.', en: 'Password must be at least 8 characters.' },
    { body: { ...ok, password: 'p'.repeat(129) }, ko: '비밀번호: 128자 이하로 입력해주세요.', en: 'Password must be at most 128 characters.' },
    { body: { ...ok, name: '  ' }, ko: '이름: 필수 입력 항목입니다.', en: 'Name is required.' },
    { body: { ...ok, name: 'n'.repeat(51) }, ko: '이름: 50자 이하로 입력해주세요.', en: 'Name must be at most 50 characters.' },
    { body: { ...ok, email: 'nope' }, ko: '이메일: 올바른 이메일 주소를 입력해주세요. (예: name@example.com)', en: 'E-mail must be an e-mail address, like name@example.com.' },
    { body: { ...ok, name: 'a\u0000b' }, ko: '이름: 사용할 수 없는 문자(제어 문자)가 들어 있습니다.', en: 'Name contains characters that are not allowed (control characters).' },
    { body: { name: ok.name, email: ok.email }, ko: '비밀번호: 필수 입력 항목입니다.', en: 'Password is required.' },
    { body: { ...ok, password: 12345678 }, ko: '비밀번호: 값의 종류가 올바르지 않습니다.', en: 'Password has a value of the wrong kind.' },
    { body: { email: ok.email, password: '' }, ko: '비밀번호: 필수 입력 항목입니다.', en: 'Password is required.', schema: LoginRequestSchema },
  ];

  for (const c of cases) {
    it(`${JSON.stringify(c.body).slice(0, 60)} → ${c.en}`, async () => {
      const err = refusal(detailsFor(c.schema ?? RegisterRequestSchema, c.body));
      expect(validationMessages(err, await translator('ko'))).toEqual([c.ko]);
      expect(validationMessages(err, await translator('en'))).toEqual([c.en]);
    });
  }

  it('one sentence per field, in the server order; unknown fields are named by their path', async () => {
    const err = refusal([
      { field: 'email', rule: 'invalid_format', format: 'email', message: 'Invalid email address' },
      { field: 'email', rule: 'too_big', maximum: 254, message: 'Too big' },
      { field: 'input.prompt', rule: 'too_big', maximum: 500, message: 'Too big' },
      { field: '', rule: 'invalid_type', message: 'Invalid input: expected object, received string' },
    ]);
    expect(validationMessages(err, await translator('en'))).toEqual([
      'E-mail must be an e-mail address, like name@example.com.',
      'input.prompt must be at most 500 characters.',
      'Request has a value of the wrong kind.',
    ]);
  });

  it('anything else is left to the caller (null)', async () => {
    const t = await translator('en');
    expect(validationMessages(new ApiError(401, 'INVALID_CREDENTIALS', 'x', 'x', {}), t)).toBeNull();
    expect(validationMessages(refusal(undefined), t)).toBeNull();
    expect(validationMessages(refusal([{ reason: 'no field' }]), t)).toBeNull();
    expect(validationMessages(new Error('boom'), t)).toBeNull();
  });
});
