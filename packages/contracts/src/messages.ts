import type { ErrorCode, Locale } from './errors';

/**
 * Server error messages in both languages, from the spec's catalogues where they give the wording
 * (000 §8, 001 §8). The server picks the language from the `locale` cookie, else Accept-Language.
 */
export const ERROR_MESSAGES: Record<ErrorCode, Record<Locale, string>> = {
  VALIDATION_FAILED: { ko: '입력값을 확인해주세요.', en: 'Please check the values you entered.' },
  MALFORMED_JSON: { ko: '요청 형식이 올바르지 않습니다.', en: 'The request body is not valid JSON.' },
  UNAUTHENTICATED: { ko: '로그인이 필요합니다.', en: 'Please log in.' },
  SESSION_EXPIRED: { ko: '로그인이 만료되었습니다. 다시 로그인해주세요.', en: 'Login has expired. Please log in again.' },
  FORBIDDEN: { ko: '접근 권한이 없습니다.', en: 'You do not have access to this.' },
  FOREIGN_ORIGIN: { ko: '허용되지 않은 요청 출처입니다.', en: 'Request refused: foreign origin.' },
  NOT_FOUND: { ko: '찾을 수 없습니다.', en: 'Not found.' },
  INVALID_CREDENTIALS: { ko: '이메일 또는 비밀번호가 올바르지 않습니다.', en: 'The e-mail or password is incorrect.' },
  EMAIL_TAKEN: { ko: '이미 가입된 이메일입니다.', en: 'An account with this e-mail already exists.' },
  RATE_LIMITED: { ko: '시도가 너무 많습니다. 잠시 후 다시 시도해주세요.', en: 'Too many attempts. Please try again later.' },
  INSUFFICIENT_CREDITS: { ko: '크레딧이 부족합니다.', en: 'Not enough credits.' },
  UPSCALE_BLOCKED: {
    ko: '확대 후 가로+세로가 4000px 이상이면 처리할 수 없습니다. 배율을 낮춰주세요.',
    en: 'Width + height after scaling must stay under 4000 px. Lower the scale.',
  },
  UNSUPPORTED_IMAGE_TYPE: { ko: 'jpg,png만 업로드 가능합니다!', en: 'Only JPG and PNG files can be uploaded!' },
  IMAGE_TOO_LARGE: { ko: '파일이 너무 큽니다. 25MB 이하로 올려주세요.', en: 'The file is too large. Upload 25 MB or less.' },
  IMAGE_TOO_MANY_PIXELS: { ko: '이미지 해상도가 너무 큽니다.', en: 'The image resolution is too large.' },
  IMAGE_CORRUPT: { ko: '이미지 파일이 손상되었거나 읽을 수 없습니다.', en: 'The image file is damaged or cannot be read.' },
  CHECKSUM_MISMATCH: { ko: '업로드한 파일이 손상되었습니다. 다시 시도해주세요.', en: 'The uploaded file was corrupted in transit. Please try again.' },
  UPLOAD_EXPIRED: { ko: '업로드 링크가 만료되었습니다. 다시 시도해주세요.', en: 'The upload link has expired. Please try again.' },
  UPLOAD_QUOTA_EXCEEDED: {
    ko: '업로드 대기 중인 파일이 너무 많습니다. 잠시 후 다시 시도해주세요.',
    en: 'Too many uploads are still waiting to finish. Please try again in a few minutes.',
  },
  UPLOAD_STORAGE_FULL: {
    ko: '보관 중인 업로드가 한도에 도달했습니다. 업로드한 사진은 30일 뒤 자동으로 삭제되며, 그 뒤에 다시 올릴 수 있습니다.',
    en: 'Your stored uploads have reached their limit. Uploaded photos are deleted automatically after 30 days; you can upload again then.',
  },
  EMAIL_NOT_VERIFIED: {
    ko: '이메일 인증 후 이용할 수 있습니다. 받은 편지함의 인증 링크를 열어주세요. 메일이 없다면 화면 위의 "인증 링크 다시 보내기"를 눌러주세요.',
    en: 'Please verify your e-mail first: open the link we sent to your inbox. No mail? Use "Resend the link" at the top of the page.',
  },
  NSFW_CONTENT_DETECTED: {
    ko: '부적절한 컨텐츠가 감지되었습니다. 서비스 정책에 따라 업로드가 차단됩니다.',
    en: 'Inappropriate content was detected. The upload is blocked under our service policy.',
  },
  MAINTENANCE: { ko: '현재 서비스 점검중입니다. 잠시 후 다시 시도해주세요.', en: 'The service is under maintenance. Please try again shortly.' },
  PAYLOAD_TOO_LARGE: { ko: '요청이 너무 큽니다.', en: 'The request is too large.' },
  NOT_CONFIGURED: { ko: '이 기능은 아직 설정되지 않았습니다.', en: 'This feature is not configured yet.' },
  IDEMPOTENCY_KEY_REUSED: {
    ko: '같은 요청 키가 다른 내용의 요청에 이미 사용되었습니다. 새 요청은 새 키로 보내주세요.',
    en: 'This Idempotency-Key was already used with a different request. Send a new request with a new key.',
  },
  REQUEST_IN_PROGRESS: {
    ko: '같은 요청이 아직 처리 중입니다. 잠시 후 다시 시도해주세요.',
    en: 'The same request is still being processed. Please try again in a moment.',
  },
  API_KEY_LIMIT_REACHED: {
    ko: 'API 키는 최대 10개까지 만들 수 있습니다. 쓰지 않는 키를 폐기한 뒤 다시 시도해주세요.',
    en: 'You can have at most 10 API keys. Revoke a key you no longer use, then try again.',
  },
  API_KEY_INVALID: {
    ko: 'API 키가 없거나 올바르지 않습니다. 폐기되었거나 만료된 키, 인증되지 않았거나 삭제 중인 계정의 키는 쓸 수 없습니다.',
    en: 'The API key is missing or not valid. A revoked or expired key, or a key of an unverified or closing account, cannot be used.',
  },
  JOB_IN_PROGRESS: {
    ko: '처리 중인 작업은 삭제할 수 없습니다. 작업이 끝난 뒤 다시 시도해주세요.',
    en: 'A job that is still processing cannot be deleted. Try again when it has finished.',
  },
  JOB_NOT_CANCELLABLE: {
    ko: '이미 처리를 시작했거나 끝난 작업은 취소할 수 없습니다.',
    en: 'This job has already started or finished, so it can no longer be cancelled.',
  },
  NO_WRITE_PERMISSION: { ko: '작성 권한이 없습니다.', en: 'No write permission.' },
  NOTICE_INCOMPLETE: { ko: '제목과 내용을 입력해주세요.', en: 'Please enter a title and content.' },
  MASK_REQUIRED: { ko: '마스크를 지정하고 저장해주세요.', en: 'Please specify and save the mask first' },
  MASK_EMPTY: { ko: '변경할 영역을 칠해주세요!', en: 'Paint the area to change!' },
  IMAGE_EDIT_FILE_TOO_LARGE: { ko: '파일 크기는 9MB 이하여야 합니다.', en: 'The file size must be 9MB or less.' },
  IMAGE_EDIT_TOO_SMALL: { ko: '이미지는 최소 921600 픽셀(960x960) 이상이어야 합니다.', en: 'The image must have at least 921600 pixels (960x960).' },
  PAYMENTS_NOT_CONFIGURED: {
    ko: '결제가 아직 설정되지 않았습니다. 결제 없이 이용할 수 있는 기능만 사용할 수 있습니다.',
    en: 'Payments are not configured on this server yet. Nothing can be bought or charged.',
  },
  PAYMENT_PROVIDER_ERROR: {
    ko: '결제 서비스와 통신하지 못했습니다. 잠시 후 다시 시도해주세요.',
    en: 'We could not reach the payment service. Please try again shortly.',
  },
  WEBHOOK_SIGNATURE_INVALID: { ko: '웹훅 서명이 올바르지 않습니다.', en: 'The webhook signature is invalid.' },
  ALREADY_SUBSCRIBED: {
    ko: '이미 구독 중입니다. 다른 플랜으로 바꾸려면 플랜 변경을 이용해주세요.',
    en: 'You already have a subscription. Use plan change to switch plans.',
  },
  CURRENCY_NOT_AVAILABLE: {
    ko: '현재 결제 서비스는 선택한 통화로 결제할 수 없습니다. 다른 통화를 선택해주세요.',
    en: 'This payment provider cannot charge in the chosen currency. Choose the other currency.',
  },
  CHECKOUT_IN_PROGRESS: {
    ko: '진행 중인 구독 결제가 있습니다. 열려 있는 결제를 마치거나, 30분 뒤에 다시 시도해주세요.',
    en: 'A subscription checkout is already open. Finish that payment, or try again in 30 minutes.',
  },
  NO_SUBSCRIPTION: { ko: '이용 중인 구독이 없습니다.', en: 'You do not have an active subscription.' },
  SAME_PLAN: { ko: '이미 이용 중인 플랜입니다.', en: 'You are already on this plan.' },
  NO_SCHEDULED_CHANGE: { ko: '예약된 플랜 변경이 없습니다.', en: 'No plan change is scheduled.' },
  SUBSCRIPTION_CANCEL_SCHEDULED: {
    ko: '구독 취소가 예약되어 있습니다. 먼저 구독 취소를 철회한 뒤 플랜을 변경해주세요.',
    en: 'Your subscription is set to cancel. Revoke the cancellation first, then change plans.',
  },
  SUBSCRIPTION_ENDED: {
    ko: '구독이 종료되었습니다. 새 구독을 시작해주세요.',
    en: 'Your subscription has ended. Please start a new subscription.',
  },
  SOCIAL_AUTH_FAILED: { ko: '소셜 로그인에 실패했습니다. 다시 시도해주세요.', en: 'Social sign-in failed. Please try again.' },
  SOCIAL_CANCELLED: { ko: '로그인이 취소되었습니다.', en: 'Sign-in was cancelled.' },
  OAUTH_STATE_MISMATCH: {
    ko: '로그인 요청이 만료되었거나 일치하지 않습니다. 다시 시도해주세요.',
    en: 'The sign-in request expired or did not match. Please try again.',
  },
  SOCIAL_EMAIL_UNVERIFIED: {
    ko: '이 소셜 계정에는 인증된 이메일이 없습니다. 해당 서비스에서 이메일을 인증하거나 이메일로 가입해주세요.',
    en: 'This social account has no verified e-mail. Verify it with the provider, or sign up with your e-mail.',
  },
  SOCIAL_ACCOUNT_EXISTS: {
    ko: '이 이메일로 가입된 계정이 이미 있습니다. 먼저 그 계정으로 로그인한 뒤 마이페이지에서 연결해주세요.',
    en: 'An account with this e-mail already exists. Sign in to it first, then link this sign-in from My Page.',
  },
  IDENTITY_IN_USE: {
    ko: '이 소셜 계정은 이미 다른 계정에 연결되어 있거나, 같은 서비스의 계정이 이미 연결되어 있습니다.',
    en: 'This social account is already linked to another account, or one of this provider is already linked.',
  },
  SOCIAL_REAUTH_MISMATCH: {
    ko: '이 계정에 연결된 소셜 계정이 아닙니다.',
    en: 'That is not the social account linked to this account.',
  },
  LAST_SIGN_IN_METHOD: {
    ko: '마지막 로그인 수단은 해제할 수 없습니다. 다른 로그인 수단을 먼저 연결해주세요.',
    en: 'You cannot unlink your last way to sign in. Link another sign-in method first.',
  },
  NSFW_PROMPT_BLOCKED: { ko: 'NSFW 위험이 있는 프롬프트는 사용할 수 없습니다.', en: 'NSFW risk: this prompt is not allowed.' },
  GENERATION_INPUT_REQUIRED: { ko: '프롬프트를 입력하거나 참조 이미지를 업로드해주세요.', en: 'Enter a prompt or upload a reference image.' },
  GENERATION_IMAGE_TYPE: { ko: 'jpg, jpeg, png, webp 파일만 업로드 가능합니다.', en: 'Only jpg, jpeg, png and webp files can be uploaded.' },
  GENERATION_FAILED: { ko: '이미지 생성에 실패했습니다. 크레딧은 환불되었습니다.', en: 'Image generation failed. Your credits were refunded.' },
  GENERATION_SAFETY_BLOCKED: {
    ko: '콘텐츠 정책에 따라 생성이 차단되었습니다. 크레딧은 환불되었습니다.',
    en: 'The generation was blocked by the content policy. Your credits were refunded.',
  },
  VENDOR_AUTH_FAILED: {
    ko: '이미지 생성 서비스 인증에 실패했습니다. 크레딧은 환불되었습니다.',
    en: 'The image generation service refused our credentials. Your credits were refunded.',
  },
  VENDOR_BUSY: {
    ko: '이미지 생성 서비스가 혼잡합니다. 잠시 후 다시 시도해주세요. 크레딧은 환불되었습니다.',
    en: 'The image generation service is busy. Please try again shortly. Your credits were refunded.',
  },
  VENDOR_UNAVAILABLE: {
    ko: '이미지 생성 서비스에 연결할 수 없습니다. 크레딧은 환불되었습니다.',
    en: 'The image generation service cannot be reached. Your credits were refunded.',
  },
  TOKEN_INVALID: { ko: '링크가 올바르지 않습니다. 메일의 링크를 그대로 열어주세요.', en: 'This link is not valid. Open the link from the e-mail exactly as sent.' },
  TOKEN_EXPIRED: { ko: '링크가 만료되었습니다. 새 링크를 요청해주세요.', en: 'This link has expired. Please request a new one.' },
  TOKEN_USED: { ko: '이미 사용된 링크입니다.', en: 'This link has already been used.' },
  ACCOUNT_DELETION_PENDING: {
    ko: '탈퇴 신청된 계정입니다. 탈퇴를 취소하면 다시 이용할 수 있습니다.',
    en: 'This account is scheduled for deletion. Undo the deletion to use it again.',
  },
  PASSWORD_REQUIRED: { ko: '비밀번호를 입력해주세요.', en: 'Please enter your password.' },
  WRONG_PASSWORD: { ko: '비밀번호가 올바르지 않습니다.', en: 'The password is incorrect.' },
  REAUTHENTICATION_REQUIRED: {
    ko: '보안을 위해 소셜 계정으로 다시 로그인한 뒤 시도해주세요.',
    en: 'For your security, sign in again with your social account, then try again.',
  },
  AI_EMPTY_MESSAGE: { ko: '메시지나 이미지를 입력해주세요', en: 'Please enter a message or image' },
  AI_PROMPT_EMPTY: { ko: 'AI 프롬프트가 비어 있습니다.', en: 'The AI prompt is empty.' },
  AI_REFUSED: {
    ko: 'AI가 이 요청을 거부했습니다. 내용을 바꿔 다시 시도해주세요. 크레딧은 환불되었습니다.',
    en: 'The AI refused this request. Change it and try again. Your credits were refunded.',
  },
  AI_UNAVAILABLE: {
    ko: 'AI 서비스에 일시적인 오류가 발생했습니다. 잠시 후 다시 시도해주세요. 크레딧은 환불되었습니다.',
    en: 'The AI service had a temporary error. Please try again shortly. Your credits were refunded.',
  },
  AI_TIMEOUT: {
    ko: 'AI 응답 시간이 초과되었습니다. 잠시 후 다시 시도해주세요. 크레딧은 환불되었습니다.',
    en: 'The AI took too long to answer. Please try again shortly. Your credits were refunded.',
  },
  NOTHING_TO_CHARGE: { ko: '차감할 AI 수정 결과가 없습니다.', en: 'There is no AI rewrite to charge for.' },
  INTERNAL: { ko: '서버 오류가 발생했습니다.', en: 'A server error occurred.' },
};

/** The message for a code in a locale. */
export function errorMessage(code: ErrorCode, locale: Locale): string {
  return ERROR_MESSAGES[code][locale];
}
