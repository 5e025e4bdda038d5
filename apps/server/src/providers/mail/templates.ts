import type { Locale } from '@dewy/contracts';
import type { MailMessage } from './mail.provider';

/** Escapes text for HTML element content and attribute values. */
function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

interface MailLink {
  url: string;
  label: string;
}

function html(title: string, paragraphs: string[], links: MailLink[]): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${esc(p)}</p>`).join('');
  const buttons = links
    .map(
      (link) =>
        `<p style="margin:24px 0"><a href="${esc(link.url)}" style="background:#111;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;display:inline-block">${esc(link.label)}</a></p><p style="margin:0 0 16px;font-size:12px;color:#666;word-break:break-all">${esc(link.url)}</p>`,
    )
    .join('');
  return `<!doctype html><html><body style="font-family:system-ui,-apple-system,'Noto Sans KR',sans-serif;color:#111;max-width:560px;margin:0 auto;padding:24px"><h1 style="font-size:20px">${esc(title)}</h1>${body}${buttons}<p style="font-size:12px;color:#888">Dewy</p></body></html>`;
}

/** A message of `paragraphs` and, after them, one button per link (the text part lists `label: url`). */
function message(to: string, subject: string, paragraphs: string[], link?: MailLink | MailLink[]): MailMessage {
  const links = link === undefined ? [] : Array.isArray(link) ? link : [link];
  const text = [...paragraphs, ...links.map((l) => `${l.label}: ${l.url}`), '', '— Dewy'].join('\n\n');
  return { to, subject, text, html: html(subject, paragraphs, links) };
}

/**
 * A calendar day for a mail, in the reader's language and in Asia/Seoul, as the product shows dates
 * (002: dates in the Asia/Seoul timezone): '2026년 12월 1일' / 'December 1, 2026 (KST)'.
 */
export function mailDate(at: Date, locale: Locale): string {
  const text = new Intl.DateTimeFormat(locale === 'ko' ? 'ko-KR' : 'en-US', { dateStyle: 'long', timeZone: 'Asia/Seoul' }).format(at);
  return locale === 'ko' ? text : `${text} (KST)`;
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

/**
 * "Someone tried to sign up with your address" (issue 21 point 10, decision 031): sent to the owner
 * instead of telling the sign-up page that the address has an account; how to sign in or reset.
 */
export function signupAttemptMail(locale: Locale, to: string, a: { loginUrl: string; resetUrl: string }): MailMessage {
  return locale === 'ko'
    ? message(to, '[Dewy] 이 이메일 주소로 가입 시도가 있었습니다', ['누군가 이 이메일 주소로 Dewy 가입을 시도했습니다. 이 주소로는 이미 계정이 있으므로 새 계정은 만들어지지 않았습니다.', `본인이 시도하셨다면 기존 계정으로 로그인하세요. 비밀번호가 기억나지 않으면 여기에서 재설정할 수 있습니다: ${a.resetUrl}`, '본인이 아니라면 이 메일을 무시하셔도 됩니다. 계정은 바뀌지 않았습니다.'], { url: a.loginUrl, label: '로그인하기' })
    : message(to, '[Dewy] Someone tried to sign up with your e-mail address', ['Someone tried to sign up to Dewy with this e-mail address. It already has an account, so no new account was created.', `If it was you, sign in to your account. If you forgot your password, you can reset it here: ${a.resetUrl}`, 'If it was not you, you can ignore this e-mail: nothing about your account has changed.'], { url: a.loginUrl, label: 'Sign in' });
}

/** Confirms a deletion request (002 §9): when the account goes for good and how to undo. */
export function deletionRequestedMail(locale: Locale, to: string, a: { dueDate: string; loginUrl: string }): MailMessage {
  return locale === 'ko'
    ? message(to, '[Dewy] 회원 탈퇴가 신청되었습니다', ['회원 탈퇴 신청이 접수되어 계정이 비활성화되었습니다.', `${a.dueDate}에 계정과 사진이 영구 삭제됩니다. 그 전에 로그인하면 탈퇴를 취소할 수 있습니다.`], { url: a.loginUrl, label: '로그인하여 탈퇴 취소' })
    : message(to, '[Dewy] Your account is scheduled for deletion', ['We received your request to delete your account; it is now disabled.', `Your account and photos will be deleted for good on ${a.dueDate}. Sign in before then to undo the deletion.`], { url: a.loginUrl, label: 'Sign in to undo' });
}

/**
 * A renewal reminder (terms §7 and refund policy: 7, 3 and 1 day before each renewal; decision 027):
 * the plan, the renewal date (already formatted in the reader's language, KST), the amount, and where
 * to cancel. `days`: whole days left until the renewal (rounded up; 7, 3 or 1 when the job runs on time).
 */
export function renewalReminderMail(locale: Locale, to: string, a: { planName: string; date: string; amount: string; days: number; manageUrl: string }): MailMessage {
  return locale === 'ko'
    ? message(to, `[Dewy] ${a.days}일 후 구독이 갱신됩니다`, [`${a.planName} 플랜 구독이 ${a.date}에 자동으로 갱신되며, ${a.amount}가 결제됩니다.`, '갱신을 원하지 않으시면 그 전에 마이페이지에서 구독을 해지해주세요. 해지해도 이번 결제 주기가 끝날 때까지는 계속 이용할 수 있습니다.'], { url: a.manageUrl, label: '마이페이지에서 구독 관리' })
    : message(to, `[Dewy] Your subscription renews in ${a.days} ${a.days === 1 ? 'day' : 'days'}`, [`Your ${a.planName} plan renews automatically on ${a.date}, and ${a.amount} will be charged.`, 'If you do not want it to renew, cancel it on My Page before then. You keep using it until the end of the current period.'], { url: a.manageUrl, label: 'Manage subscription on My Page' });
}

/**
 * The dormancy notice (terms §14, decision 027): no sign-in for almost a year; on `date` (formatted in
 * the reader's language, KST) the account becomes dormant unless the owner signs in before then.
 */
export function dormancyNoticeMail(locale: Locale, to: string, a: { date: string; loginUrl: string }): MailMessage {
  return locale === 'ko'
    ? message(to, '[Dewy] 계정이 휴면 계정으로 전환될 예정입니다', ['1년 가까이 Dewy에 로그인하지 않으셨습니다.', `${a.date}까지 로그인하지 않으면 계정이 휴면 계정으로 전환됩니다. 휴면 계정도 다시 로그인하면 바로 되살아나며, 크레딧은 그대로 유지됩니다.`], { url: a.loginUrl, label: '로그인하기' })
    : message(to, '[Dewy] Your account will become dormant', ['You have not signed in to Dewy for almost a year.', `If you do not sign in by ${a.date}, your account becomes dormant. Signing in again restores a dormant account at once, and your credits are kept.`], { url: a.loginUrl, label: 'Sign in' });
}

/**
 * A subscription payment failed (issue 21 point 12, decision 030): which plan, that the subscription is
 * overdue until the payment goes through, and where to fix it (the provider's update-payment page, or
 * My Page when the provider has none). Sent once per failed invoice.
 */
export function paymentFailedMail(locale: Locale, to: string, a: { planName: string; amount: string; fixUrl: string }): MailMessage {
  return locale === 'ko'
    ? message(to, '[Dewy] 구독 결제에 실패했습니다', [`${a.planName} 플랜 구독 결제(${a.amount})가 승인되지 않아 구독이 결제 연체 상태가 되었습니다.`, '카드 정보를 확인하거나 다른 카드로 결제해주세요. 결제가 끝나면 이번 달 구독 크레딧이 지급되고 구독이 그대로 이어집니다. 결제되지 않으면 구독이 종료될 수 있습니다.'], { url: a.fixUrl, label: '결제 수단 업데이트' })
    : message(to, '[Dewy] Your subscription payment failed', [`The payment for your ${a.planName} plan (${a.amount}) was declined, so your subscription is now past due.`, 'Please check your card or pay with another one. Once the payment goes through, this period\'s subscription credits are added and your subscription carries on. If it is not paid, the subscription may end.'], { url: a.fixUrl, label: 'Update payment method' });
}

/*
 * The billing mails (issue 25, decision 041): one per event, in the owner's language. Amounts arrive
 * formatted (`formatPrice`: '₩12,900', '$9'), the method by its name ('카카오페이', 'Card'; '' when the
 * provider did not say), dates by `mailDate` (KST). `historyUrl`: My Page's billing history;
 * `receiptUrl`: the provider's receipt page, or ours (`/mypage/receipts/{paymentId}`).
 */

/** Credits as people count them: '4,800'. */
function count(n: number, locale: Locale): string {
  return n.toLocaleString(locale === 'ko' ? 'ko-KR' : 'en-US');
}

function paidLine(locale: Locale, amount: string, method: string): string {
  if (locale === 'ko') return `결제 금액: ${amount}${method ? ` (${method})` : ''}`;
  return `Amount paid: ${amount}${method ? ` (${method})` : ''}`;
}

function billingLinks(locale: Locale, historyUrl: string, receiptUrl: string | null): MailLink[] {
  const history = { url: historyUrl, label: locale === 'ko' ? '결제 내역 보기' : 'View billing history' };
  return receiptUrl ? [{ url: receiptUrl, label: locale === 'ko' ? '영수증 보기' : 'View receipt' }, history] : [history];
}

/**
 * A purchase that granted credits: a credit pack (`what.kind: 'pack'`), a subscription's first payment
 * (`'subscription'`) or an upgrade's prorated difference (`'upgrade'`); `what.name` is the pack's or
 * plan's name in the reader's language.
 */
export function purchaseMail(
  locale: Locale,
  to: string,
  a: { what: { kind: 'pack' | 'subscription' | 'upgrade'; name: string }; amount: string; method: string; credits: number; historyUrl: string; receiptUrl: string },
): MailMessage {
  const links = billingLinks(locale, a.historyUrl, a.receiptUrl);
  if (locale === 'ko') {
    const lead = { pack: `${a.what.name} 크레딧 팩 구매가 완료되었습니다.`, subscription: `${a.what.name} 플랜 구독이 시작되었습니다.`, upgrade: `${a.what.name} 플랜으로 업그레이드되었습니다. 이번 결제 주기의 남은 기간에 해당하는 차액이 결제되었습니다.` }[a.what.kind];
    const credits = a.what.kind === 'pack' ? `지급된 크레딧: ${count(a.credits, locale)}개 (일회성 크레딧, 사용 기한 없음)` : `지급된 크레딧: ${count(a.credits, locale)}개 (이번 결제 주기의 구독 크레딧)`;
    return message(to, '[Dewy] 결제가 완료되었습니다', [lead, paidLine(locale, a.amount, a.method), credits, '결제 내역과 영수증은 마이페이지에서 언제든 확인할 수 있습니다.'], links);
  }
  const lead = { pack: `Your purchase of the ${a.what.name} credit pack is complete.`, subscription: `Your ${a.what.name} plan subscription has started.`, upgrade: `Your plan is upgraded to ${a.what.name}. The difference for the rest of this billing period was charged.` }[a.what.kind];
  const credits = a.what.kind === 'pack' ? `Credits added: ${count(a.credits, locale)} (one-time credits, they do not expire)` : `Credits added: ${count(a.credits, locale)} (subscription credits of this billing period)`;
  return message(to, '[Dewy] Your payment is complete', [lead, paidLine(locale, a.amount, a.method), credits, 'You can find your billing history and receipts on My Page at any time.'], links);
}

/** A subscription renewed and paid: the new period's credits. */
export function renewalDoneMail(locale: Locale, to: string, a: { planName: string; amount: string; method: string; credits: number; historyUrl: string; receiptUrl: string }): MailMessage {
  const links = billingLinks(locale, a.historyUrl, a.receiptUrl);
  return locale === 'ko'
    ? message(to, '[Dewy] 구독이 갱신되었습니다', [`${a.planName} 플랜 구독이 갱신되었습니다.`, paidLine(locale, a.amount, a.method), `새 결제 주기의 구독 크레딧 ${count(a.credits, locale)}개가 지급되었습니다. 지난 주기에 쓰지 않은 구독 크레딧은 소멸되었으며, 일회성 크레딧은 그대로 남아 있습니다.`], links)
    : message(to, '[Dewy] Your subscription has renewed', [`Your ${a.planName} plan subscription has renewed.`, paidLine(locale, a.amount, a.method), `${count(a.credits, locale)} subscription credits for the new billing period have been added. Subscription credits left over from the last period have expired; your one-time credits are kept.`], links);
}

/**
 * A refund processed. Refunds are told as totals of the payment (one mail per refunded total, so a
 * second partial refund mails again with the new total): `paid` the payment, `refunded` what was
 * refunded of it so far, `creditsTaken` what the refunds took back so far (0: none). `itemName`:
 * '스타터 크레딧 팩' / 'Starter credit pack', '베이직 플랜' / 'Basic plan'. `duplicate`: the refund of a
 * subscription we refused because the customer already had one (decision 029), which they did not ask
 * for: said so.
 */
export function refundMail(
  locale: Locale,
  to: string,
  a: { itemName: string; paid: string; refunded: string; partial: boolean; creditsTaken: number; duplicate: boolean; historyUrl: string; receiptUrl: string },
): MailMessage {
  const links = billingLinks(locale, a.historyUrl, a.receiptUrl);
  if (locale === 'ko') {
    const lead = a.duplicate
      ? `이미 이용 중인 구독이 있어 새로 결제하신 ${a.itemName} 구독은 시작되지 않았으며, 결제하신 금액을 환불해드렸습니다. 이 결제로 지급된 크레딧은 없으며, 이용 중인 구독은 그대로 유지됩니다.`
      : `${a.itemName} 결제(${a.paid})${a.partial ? ' 중 일부가' : '가 전액'} 환불되었습니다.`;
    const lines = [lead, `환불된 금액: ${a.refunded}${a.partial ? ' (이 결제에서 지금까지 환불된 합계)' : ''}`];
    if (a.creditsTaken > 0) lines.push(`환불에 따라 회수된 크레딧: ${count(a.creditsTaken, locale)}개${a.partial ? ' (지금까지 합계)' : ''}`);
    lines.push('카드사나 결제 서비스에 따라 환불 금액이 표시되기까지 며칠 걸릴 수 있습니다.');
    return message(to, '[Dewy] 환불이 처리되었습니다', lines, links);
  }
  const lead = a.duplicate
    ? `You already had a subscription, so the new ${a.itemName} subscription you paid for was not started and your payment was refunded. No credits were added for it, and your current subscription carries on.`
    : a.partial
      ? `Part of your ${a.itemName} payment (${a.paid}) has been refunded.`
      : `Your ${a.itemName} payment (${a.paid}) has been refunded in full.`;
  const lines = [lead, `Amount refunded: ${a.refunded}${a.partial ? ' (total refunded on this payment so far)' : ''}`];
  if (a.creditsTaken > 0) lines.push(`Credits taken back with the refund: ${count(a.creditsTaken, locale)}${a.partial ? ' (total so far)' : ''}`);
  lines.push('Depending on your card issuer or payment service, the refund may take a few days to show.');
  return message(to, '[Dewy] Your refund has been processed', lines, links);
}

/** A cancellation scheduled: the subscription ends on `endDate` (formatted, KST), resumable until then. */
export function cancellationScheduledMail(locale: Locale, to: string, a: { planName: string; endDate: string; manageUrl: string }): MailMessage {
  return locale === 'ko'
    ? message(
        to,
        '[Dewy] 구독 해지가 예약되었습니다',
        [
          `${a.planName} 플랜 구독 해지가 예약되어 ${a.endDate}에 구독이 종료됩니다. 이후에는 자동 결제되지 않습니다.`,
          `지금 가진 구독 크레딧은 ${a.endDate}까지 그대로 사용할 수 있고, 구독이 끝나면 소멸됩니다. 구매하신 일회성 크레딧은 구독이 끝나도 남아 있습니다.`,
          `마음이 바뀌시면 ${a.endDate} 전에 마이페이지에서 구독을 재개하세요. 재개하면 그날 평소처럼 갱신됩니다.`,
        ],
        { url: a.manageUrl, label: '마이페이지에서 구독 재개' },
      )
    : message(
        to,
        '[Dewy] Your subscription cancellation is scheduled',
        [
          `Your ${a.planName} plan subscription is cancelled and ends on ${a.endDate}. You will not be charged again.`,
          `The subscription credits you have stay usable until ${a.endDate} and expire when the subscription ends. One-time credits you bought are kept after it ends.`,
          `Changed your mind? Resume the subscription on My Page before ${a.endDate} and it renews that day as usual.`,
        ],
        { url: a.manageUrl, label: 'Resume on My Page' },
      );
}

/** A subscription ended: its credits expired, the credits of packs and bonuses (`keptCredits`) stay. */
export function subscriptionEndedMail(locale: Locale, to: string, a: { planName: string; keptCredits: number; pricingUrl: string }): MailMessage {
  return locale === 'ko'
    ? message(
        to,
        '[Dewy] 구독이 종료되었습니다',
        [`${a.planName} 플랜 구독이 종료되었습니다. 더 이상 결제되지 않습니다.`, '남아 있던 구독 크레딧은 구독 종료와 함께 소멸되었습니다.', `구매하신 크레딧 팩과 보너스 크레딧 ${count(a.keptCredits, locale)}개는 그대로 남아 계속 사용할 수 있습니다.`, '언제든 다시 구독할 수 있습니다.'],
        { url: a.pricingUrl, label: '요금제 보기' },
      )
    : message(
        to,
        '[Dewy] Your subscription has ended',
        [`Your ${a.planName} plan subscription has ended. You will not be charged again.`, 'The subscription credits you had left expired when it ended.', `Your credits from packs and bonuses (${count(a.keptCredits, locale)}) are kept and stay usable.`, 'You can subscribe again at any time.'],
        { url: a.pricingUrl, label: 'See plans' },
      );
}
