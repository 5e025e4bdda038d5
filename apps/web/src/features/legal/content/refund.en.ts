import { LEGAL as L } from './constants';
import { COMPANY, ol, p, ul, type LegalDocument } from './types';

/** Refund policy (English). Written for Dewy from the constants of spec 002 §9; see decision 016. */
export const refundEn: LegalDocument = {
  doc: 'refund',
  locale: 'en',
  title: 'Refund policy',
  summary: `Within ${L.refundWindowDays} days of payment, if the credits have not been used, you get a full refund. Ask by e-mail: we review requests within ${L.refundReviewBusinessDays} business day, and approved refunds reach your original payment method within ${L.refundPayoutDays[0]} to ${L.refundPayoutDays[1]} days.`,
  lastUpdated: L.lastUpdated,
  sections: [
    {
      id: 'refund-window',
      heading: '1. When you can get a refund',
      blocks: [
        ul(
          `A payment whose credits have not been used at all is refunded in full if you ask within ${L.refundWindowDays} days of the payment.`,
          'Used credits are not refundable. If some of the credits have been used, we review the request, and any refund covers only the unused part.',
          'Bonus credits, such as the welcome credits and affiliate (share-link) rewards, are given free of charge and are not refundable.',
          'When a payment is refunded, the credits it granted are taken back.',
        ),
      ],
    },
    {
      id: 'one-time',
      heading: '2. One-time credits',
      blocks: [p(`One-time credits never expire and are kept permanently, but a refund can be requested only within ${L.refundWindowDays} days of the payment.`)],
    },
    {
      id: 'subscriptions',
      heading: '3. Subscriptions',
      blocks: [
        ul(
          `Both the first payment and each monthly renewal are refunded in full if you ask within ${L.refundWindowDays} days of that payment and have not used that period's subscription credits. The subscription then ends.`,
          `We e-mail you ${L.renewalReminderDays.slice(0, -1).join(', ')} and ${L.renewalReminderDays.at(-1)} day before each renewal with its date and amount. If you do not want to renew, cancel before then.`,
          'You can cancel at any time and keep using your plan until the end of the period already paid for. Time already used is not refunded pro rata.',
        ),
      ],
    },
    {
      id: 'how',
      heading: '4. How to ask, and how long it takes',
      blocks: [
        ol(
          'E-mail {supportEmail} with the e-mail address of your account, the date and amount of the payment (or its order number), and the reason.',
          `Within ${L.refundReviewBusinessDays} business day we review it and tell you by e-mail whether it is approved or rejected — and why, if rejected.`,
          `An approved refund goes back to the original payment method and takes ${L.refundPayoutDays[0]} to ${L.refundPayoutDays[1]} days, depending on your card issuer and the payment provider.`,
        ),
      ],
    },
    {
      id: 'failed-jobs',
      heading: '5. Failed jobs and late payments',
      blocks: [
        p('If a retouch job fails for a technical reason or does not finish in time, the credits deducted for it are returned automatically; you do not need to ask.'),
        p(`After a payment, credits or a subscription may take up to ${L.serviceStartDelayHours} hours to appear. If nothing has arrived after ${L.serviceStartDelayHours} hours, tell us: we will apply it at once or, if you prefer, refund you in full.`),
      ],
    },
    {
      id: 'outage',
      heading: '6. Compensation for outages',
      blocks: [
        p(`If the Service is unavailable for ${L.outageCompensationHours} hours or more in a row through the Company's fault, we compensate you by extending your subscription by the downtime or by granting the matching credits. Outages are announced on the notice board; if you did not receive compensation, contact support.`),
      ],
    },
    {
      id: 'support',
      heading: '7. Support',
      blocks: [
        p(`Support hours: weekdays ${L.supportHours} Korea Standard Time, except Korean public holidays. Requests received outside these hours are handled on the next business day.`),
        p('E-mail: {supportEmail}'),
        COMPANY,
        p('Dates and periods in this policy are in Korea Standard Time (Asia/Seoul). Anything this policy does not cover follows the terms of service and the law.'),
      ],
    },
  ],
};
