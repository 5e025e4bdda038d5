import type { Locale } from '@dewy/contracts';
import type { MailMessage } from './mail.provider';

/** Escapes text for HTML element content and attribute values. */
function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function html(title: string, paragraphs: string[], link?: { url: string; label: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${esc(p)}</p>`).join('');
  const button = link
    ? `<p style="margin:24px 0"><a href="${esc(link.url)}" style="background:#111;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;display:inline-block">${esc(link.label)}</a></p><p style="margin:0 0 16px;font-size:12px;color:#666;word-break:break-all">${esc(link.url)}</p>`
    : '';
  return `<!doctype html><html><body style="font-family:system-ui,-apple-system,'Noto Sans KR',sans-serif;color:#111;max-width:560px;margin:0 auto;padding:24px"><h1 style="font-size:20px">${esc(title)}</h1>${body}${button}<p style="font-size:12px;color:#888">Dewy</p></body></html>`;
}

function message(to: string, subject: string, paragraphs: string[], link?: { url: string; label: string }): MailMessage {
  const text = [...paragraphs, ...(link ? [`${link.label}: ${link.url}`] : []), '', '— Dewy'].join('\n\n');
  return { to, subject, text, html: html(subject, paragraphs, link) };
}

/** The sign-up verification mail (decision 020): the link, its lifetime, and why it matters (welcome credits). */
export function verificationMail(locale: Locale, to: string, a: { name: string; url: string; hours: number; welcomeCredits: number }): MailMessage {
  return locale === 'ko'
    ? message(to, '[Dewy] 이메일 주소를 인증해주세요', [`${a.name}님, Dewy에 가입해주셔서 감사합니다.`, `아래 링크를 열어 이메일 주소를 인증하면 가입 축하 크레딧 ${a.welcomeCredits}개가 지급됩니다. 링크는 ${a.hours}시간 동안 한 번만 사용할 수 있습니다.`, '가입하지 않으셨다면 이 메일을 무시해주세요.'], { url: a.url, label: '이메일 인증하기' })
    : message(to, '[Dewy] Please verify your e-mail address', [`Hi ${a.name}, thank you for signing up to Dewy.`, `Open the link below to verify your e-mail address and receive your ${a.welcomeCredits} welcome credits. The link works once, for ${a.hours} hours.`, 'If you did not sign up, ignore this e-mail.'], { url: a.url, label: 'Verify e-mail' });
}

/** The password-reset mail: a single-use link valid for `minutes`. */
export function passwordResetMail(locale: Locale, to: string, a: { url: string; minutes: number }): MailMessage {
  return locale === 'ko'
    ? message(to, '[Dewy] 비밀번호 재설정', ['비밀번호 재설정 요청을 받았습니다.', `아래 링크에서 새 비밀번호를 설정하세요. 링크는 ${a.minutes}분 동안 한 번만 사용할 수 있으며, 재설정하면 다른 기기의 로그인은 모두 종료됩니다.`, '요청하지 않으셨다면 이 메일을 무시해주세요. 비밀번호는 바뀌지 않습니다.'], { url: a.url, label: '비밀번호 재설정' })
    : message(to, '[Dewy] Reset your password', ['We received a request to reset your password.', `Set a new password with the link below. It works once, for ${a.minutes} minutes; resetting signs you out on every other device.`, 'If you did not ask for this, ignore this e-mail: your password stays as it is.'], { url: a.url, label: 'Reset password' });
}

/** Confirms a deletion request (002 §9): when the account goes for good and how to undo. */
export function deletionRequestedMail(locale: Locale, to: string, a: { dueDate: string; loginUrl: string }): MailMessage {
  return locale === 'ko'
    ? message(to, '[Dewy] 회원 탈퇴가 신청되었습니다', ['회원 탈퇴 신청이 접수되어 계정이 비활성화되었습니다.', `${a.dueDate}에 계정과 사진이 영구 삭제됩니다. 그 전에 로그인하면 탈퇴를 취소할 수 있습니다.`], { url: a.loginUrl, label: '로그인하여 탈퇴 취소' })
    : message(to, '[Dewy] Your account is scheduled for deletion', ['We received your request to delete your account; it is now disabled.', `Your account and photos will be deleted for good on ${a.dueDate}. Sign in before then to undo the deletion.`], { url: a.loginUrl, label: 'Sign in to undo' });
}
