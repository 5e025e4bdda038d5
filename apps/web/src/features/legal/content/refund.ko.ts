import { LEGAL as L } from './constants';
import { COMPANY, ol, p, ul, type LegalDocument } from './types';

/** 환불정책 (Korean). Written for Dewy from the constants of spec 002 §9; see decision 016. */
export const refundKo: LegalDocument = {
  doc: 'refund',
  locale: 'ko',
  title: '환불정책',
  summary: `결제 후 ${L.refundWindowDays}일 이내, 크레딧을 쓰지 않았다면 전액 환불해 드립니다. 요청은 이메일로 받으며 영업일 기준 ${L.refundReviewBusinessDays}일 안에 검토하고, 승인된 환불은 원래 결제 수단으로 ${L.refundPayoutDays[0]}~${L.refundPayoutDays[1]}일 안에 돌아갑니다.`,
  lastUpdated: L.lastUpdated,
  sections: [
    {
      id: 'refund-window',
      heading: '1. 환불 기준',
      blocks: [
        ul(
          `결제일로부터 ${L.refundWindowDays}일 이내이고 그 결제로 받은 크레딧을 전혀 사용하지 않았다면 전액 환불합니다.`,
          '사용한 크레딧은 환불되지 않습니다. 일부를 사용한 경우에는 요청을 검토해, 환불하더라도 사용하지 않은 부분에 한해 환불합니다.',
          '가입 축하 크레딧과 제휴(공유 링크) 보상 같은 보너스 크레딧은 무상으로 지급된 것이므로 환불 대상이 아닙니다.',
          '환불이 이루어지면 그 결제로 받은 크레딧은 회수됩니다.',
        ),
      ],
    },
    {
      id: 'one-time',
      heading: '2. 일회성 크레딧',
      blocks: [p(`일회성 크레딧은 유효기간 없이 영구히 보관되지만, 환불은 결제일로부터 ${L.refundWindowDays}일 이내에만 요청할 수 있습니다.`)],
    },
    {
      id: 'subscriptions',
      heading: '3. 구독',
      blocks: [
        ul(
          `첫 결제와 매월 갱신 결제 모두 결제일로부터 ${L.refundWindowDays}일 이내이고 그 기간의 구독 크레딧을 사용하지 않았다면 전액 환불합니다. 환불하면 해당 구독은 종료됩니다.`,
          `갱신 결제일 ${L.renewalReminderDays.join('일, ')}일 전에 갱신 예정 사실과 금액을 이메일로 알려드립니다. 갱신을 원하지 않으면 그 전에 해지해 주세요.`,
          '구독은 언제든 해지할 수 있고, 해지해도 이미 결제한 기간이 끝날 때까지 이용할 수 있습니다. 이미 이용한 기간에 대한 일할 환불은 하지 않습니다.',
        ),
      ],
    },
    {
      id: 'how',
      heading: '4. 환불 요청 방법과 처리 기간',
      blocks: [
        ol(
          '{supportEmail}로 가입한 이메일, 결제일과 금액(또는 주문 번호), 환불 사유를 보내 주세요.',
          `영업일 기준 ${L.refundReviewBusinessDays}일 안에 검토해 승인 또는 거절 결과를 이메일로 알려드립니다. 거절하는 경우 그 이유를 함께 알려드립니다.`,
          `승인된 환불은 원래 결제 수단으로 이루어지며, 카드사·결제대행사에 따라 ${L.refundPayoutDays[0]}~${L.refundPayoutDays[1]}일이 걸립니다.`,
        ),
      ],
    },
    {
      id: 'failed-jobs',
      heading: '5. 작업 실패와 결제 반영 지연',
      blocks: [
        p('기술적 오류로 보정 작업이 실패하거나 제한 시간 안에 끝나지 않으면, 그 작업에 차감된 크레딧은 별도 요청 없이 자동으로 되돌려집니다.'),
        p(`결제 후 크레딧 지급이나 구독 시작은 최대 ${L.serviceStartDelayHours}시간까지 늦어질 수 있습니다. ${L.serviceStartDelayHours}시간이 지나도 반영되지 않으면 알려 주세요. 확인 후 바로 반영하거나, 원하시면 전액 환불해 드립니다.`),
      ],
    },
    {
      id: 'outage',
      heading: '6. 서비스 장애 보상',
      blocks: [
        p(`회사의 책임으로 서비스를 ${L.outageCompensationHours}시간 이상 연속해 이용할 수 없었다면, 장애 시간에 맞춰 구독 기간을 연장하거나 그에 상응하는 크레딧을 지급해 보상합니다. 장애는 공지사항으로 알리며, 보상을 받지 못했다면 고객지원으로 연락해 주세요.`),
      ],
    },
    {
      id: 'support',
      heading: '7. 고객지원',
      blocks: [
        p(`운영 시간: 평일 ${L.supportHours} (한국 표준시, 공휴일 제외). 운영 시간 밖에 받은 요청은 다음 영업일에 처리합니다.`),
        p('이메일: {supportEmail}'),
        COMPANY,
        p('이 정책의 날짜와 기간은 한국 표준시(Asia/Seoul)를 기준으로 하며, 이 정책에 없는 내용은 이용약관과 관련 법령을 따릅니다.'),
      ],
    },
  ],
};
