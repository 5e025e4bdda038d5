import { CONTROL_CHARACTER_MESSAGE, type ValidationIssueDetail } from '@dewy/contracts';
import { ApiError } from './api-client';

/** The translate function the mapping needs (react-i18next's `t`). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Fields with a catalogue label (`validation.field.*`); any other field is named by its path. */
const FIELD_LABELS = new Set(['name', 'email', 'password', 'nickname']);

function isIssue(value: unknown): value is ValidationIssueDetail {
  return value !== null && typeof value === 'object' && typeof (value as { field?: unknown }).field === 'string' && typeof (value as { rule?: unknown }).rule === 'string';
}

/** The catalogue key and values of one broken rule (zod issue code + bound → a sentence). */
function ruleMessage(issue: ValidationIssueDetail): { key: string; values?: Record<string, unknown> } {
  switch (issue.rule) {
    case 'too_small':
      return issue.minimum !== undefined && issue.minimum > 1 ? { key: 'validation.rule.tooShort', values: { min: issue.minimum } } : { key: 'validation.rule.required' };
    case 'too_big':
      return issue.maximum !== undefined ? { key: 'validation.rule.tooLong', values: { max: issue.maximum } } : { key: 'validation.rule.invalid' };
    case 'invalid_format':
      return { key: issue.format === 'email' ? 'validation.rule.email' : 'validation.rule.format' };
    case 'invalid_type':
      // zod: "Invalid input: expected string, received undefined" — a field that was not sent at all.
      return { key: /received undefined/.test(issue.message) ? 'validation.rule.required' : 'validation.rule.type' };
    case 'custom':
      return { key: issue.message === CONTROL_CHARACTER_MESSAGE ? 'validation.rule.characters' : 'validation.rule.invalid' };
    default:
      return { key: 'validation.rule.invalid' };
  }
}

/**
 * The sentences for a VALIDATION_FAILED answer (issue 17): one per field, naming the field and the rule
 * in the page's language ("비밀번호: 8자 이상 입력해주세요." / "Password must be at least 8 characters."),
 * from the server's `details` (contracts' ValidationIssueDetail: field, zod issue code, bound).
 *
 * @param err what the API call threw
 * @param t the translate function of the page's language
 * @returns the sentences in the server's order, first issue per field; null when `err` is not a
 *   VALIDATION_FAILED answer with field details (the caller then shows its usual message)
 */
export function validationMessages(err: unknown, t: Translate): string[] | null {
  if (!(err instanceof ApiError) || err.code !== 'VALIDATION_FAILED') return null;
  const details = (err.body as { details?: unknown } | null)?.details;
  if (!Array.isArray(details)) return null;
  const seen = new Set<string>();
  const out: string[] = [];
  for (const issue of details.filter(isIssue)) {
    if (seen.has(issue.field)) continue;
    seen.add(issue.field);
    const label = issue.field === '' ? t('validation.field.request') : FIELD_LABELS.has(issue.field) ? t(`validation.field.${issue.field}`) : issue.field;
    const { key, values } = ruleMessage(issue);
    out.push(t(key, { ...values, field: label }));
  }
  return out.length > 0 ? out : null;
}
