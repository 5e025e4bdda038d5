import { LEGAL as L } from './constants';
import { COMPANY, ol, p, ul, type LegalDocument } from './types';

/** Terms of service (English). Written for Dewy from the constants of spec 002 §9; see decision 016. */
export const termsEn: LegalDocument = {
  doc: 'terms',
  locale: 'en',
  title: 'Terms of service',
  summary:
    'The conditions for using Dewy, the AI portrait-retouch service: credits and subscriptions, refunds, the rights to and retention of your photos, what is not allowed, and the limits of our liability.',
  lastUpdated: L.lastUpdated,
  sections: [
    {
      id: 'purpose',
      heading: '1. Purpose',
      blocks: [p('These terms set out the conditions and procedures for using the Dewy service (the "Service") provided by {companyName} (the "Company"), and the rights, obligations and responsibilities of the Company and its members.')],
    },
    {
      id: 'definitions',
      heading: '2. Definitions',
      blocks: [
        ol(
          '"Service" means the AI portrait retouch, upscale, face-edit and other image-processing features the Company provides through its website, and everything that comes with them.',
          '"Member" means a person who has agreed to these terms and created an account to use the Service.',
          '"Credits" are the in-service units deducted when a paid feature is used. Credits are not money and cannot be transferred to another member or exchanged for cash.',
          '"One-time credits" are credits bought with a single payment; "subscription credits" are the credits a monthly plan grants each billing period; "bonus credits" are credits given free of charge, as a welcome gift or as an affiliate (share-link) reward.',
          '"Content" means the photos a member uploads (originals) and the result images the Service produces.',
        ),
      ],
    },
    {
      id: 'company',
      heading: '3. The Company',
      blocks: [p('The Service is operated by:'), COMPANY],
    },
    {
      id: 'changes',
      heading: '4. Publication and changes of these terms',
      blocks: [
        p('These terms are available at any time through the link at the bottom of every page.'),
        p(`The Company may change these terms within the limits of the law. Changes are announced on the notice board at least ${L.noticeOtherDays} days before they take effect; changes that are material or unfavourable to members are announced at least ${L.noticeMaterialDays} days before, and also by e-mail.`),
        p('A member who does not accept the changed terms may end the contract. Continuing to use the Service after the effective date means accepting the changed terms.'),
      ],
    },
    {
      id: 'membership',
      heading: '5. Membership and minimum age',
      blocks: [
        p('Membership starts when a user agrees to these terms and the privacy policy, submits the sign-up form, and the Company accepts it.'),
        p(`Users under ${L.minimumAge} need the consent of a legal guardian to use the Service. The Company does not currently offer a guardian-consent procedure, so users under ${L.minimumAge} cannot sign up; an account found to belong to one is deleted, with its personal data, without delay.`),
        p("Members must sign up with their own, accurate details; using someone else's details, or creating several accounts to collect rewards, is not allowed."),
      ],
    },
    {
      id: 'account',
      heading: '6. Your account',
      blocks: [
        p('Members are responsible for keeping their e-mail address and password safe, and may not lend or transfer their account.'),
        p('If your account has been, or may have been, used by someone else, tell us at once at {supportEmail}. For security, the Company may end login sessions that have not been used for a long time.'),
      ],
    },
    {
      id: 'service',
      heading: '7. The Service',
      blocks: [
        p('The Company applies the processing you choose (AI retouch, upscale, face edit and so on) to the photos you upload and gives you the results. Results are produced automatically by AI models and may differ from what you expected.'),
        p(`After a payment, credits or a subscription may take up to ${L.serviceStartDelayHours} hours to appear while the payment provider confirms the payment. If nothing has arrived after ${L.serviceStartDelayHours} hours, please contact support.`),
        p('The Company may pause all or part of the Service for maintenance, replacement of equipment or incident response. During maintenance no new job can be started; jobs already running are finished. Planned maintenance is announced on the notice board in advance.'),
      ],
    },
    {
      id: 'credits',
      heading: '8. Credits and payment',
      blocks: [
        p('The credits each feature takes and the prices of plans and credit packs are as shown on the pricing page; the credits a job needs are shown before you start it.'),
        ul(
          'One-time credits and bonus credits never expire: they are kept permanently and are spent before subscription credits.',
          'Subscription credits are valid only during the subscription. Each renewal recharges the plan\'s credits; subscription credits left from the previous period expire at the renewal. When the subscription ends, the remaining subscription credits expire and one-time credits stay.',
          'If a job fails for a technical reason or does not finish in time, the credits deducted for it are returned automatically.',
          'Payments are made through the payment provider the Company uses; card details are kept by that provider, not by the Company.',
        ),
      ],
    },
    {
      id: 'subscription',
      heading: '9. Subscriptions',
      blocks: [
        ul(
          'A subscription renews and is charged automatically every month on the same day until it is cancelled.',
          `The Company e-mails you ${L.renewalReminderDays.slice(0, -1).join(', ')} and ${L.renewalReminderDays.at(-1)} day before each renewal with the date and the amount.`,
          'You can cancel at any time and keep using your plan until the end of the period already paid for. Before that period ends you can revoke the cancellation.',
          'An upgrade applies immediately: the prorated difference for the rest of the period is charged and the difference in monthly credits, prorated the same way, is granted at once. A downgrade applies from the next billing period.',
        ),
      ],
    },
    {
      id: 'refunds',
      heading: '10. Withdrawal and refunds',
      blocks: [
        p(`Within ${L.refundWindowDays} days of payment, a purchase whose credits have not been used is refunded in full. Credits that have been used are not refundable. A refund request is reviewed within ${L.refundReviewBusinessDays} business day (approved or rejected), and an approved refund reaches the original payment method within ${L.refundPayoutDays[0]} to ${L.refundPayoutDays[1]} days.`),
        p('The details are in the refund policy.'),
      ],
    },
    {
      id: 'content',
      heading: '11. Your content: rights and retention',
      blocks: [
        p('The rights to the photos you upload and to their results stay with you (or with their rightful owner). You allow the Company to use your content only as far as needed to provide the Service: to store it, process it and deliver it to you.'),
        p('The Company does not use your content to train AI models, does not publish it and does not sell it to anyone.'),
        p(`Uploaded photos and result images are deleted automatically ${L.retention.uploadedContentDays} days after processing. Download the results you want to keep before then; deleted items show as "expired" in your history.`),
        p("Upload only photos you hold the rights to or have permission to use. A photo showing another person's face needs that person's consent."),
      ],
    },
    {
      id: 'prohibited',
      heading: '12. What is not allowed, and automatic moderation',
      blocks: [
        p('Members must not:'),
        ul(
          'upload or produce pornographic content, sexual content involving minors, or violent or hateful content;',
          "upload another person's photo without their consent, or use the Service to impersonate or defame someone (deepfakes included);",
          "infringe anyone's copyright, portrait rights or other rights;",
          'reverse-engineer the Service, send excessive automated requests, or get around its security measures;',
          'use payment methods without authorisation, or obtain credits or rewards by fraud.',
        ),
        p('Uploaded photos are checked by an automatic moderation system; a photo judged to break this policy is refused and no credits are charged. Repeated violations lead, after notice, to suspension of the account or termination of the contract.'),
      ],
    },
    {
      id: 'takedown',
      heading: '13. Reporting infringement and takedown',
      blocks: [
        p('If you believe content on the Service infringes your rights (portrait rights, copyright, reputation…), report it to {supportEmail} with what is infringed, why, and how to reach you.'),
        p(`Within ${L.takedownDecisionHours} hours of a report the Company decides whether to block access to the content (a temporary measure) and tells the reporter and the member concerned. The member may object; if no infringement is established, blocked content can be restored after ${L.takedownRestoreDays} days. Content past its retention period is deleted.`),
      ],
    },
    {
      id: 'termination',
      heading: '14. Ending the contract, account deletion and dormant accounts',
      blocks: [
        p(`You can end the contract at any time by asking for your account to be deleted at {supportEmail}. For ${L.deletionGraceDays} days after the request you can still cancel the deletion; after that the account and any remaining credits are deleted for good. Please cancel a running subscription first.`),
        p(`An account nobody has logged into for ${L.dormantAfterYears} year becomes dormant, unless it has a paid subscription that is still running. You are told by e-mail at least 30 days before this happens. A dormant account is only marked as dormant: its data stays as it is and its credits, one-time credits included, are kept. Logging in again brings the account back at once.`),
        p('If a member seriously breaches these terms, the Company may end the contract after telling the member why.'),
      ],
    },
    {
      id: 'liability',
      heading: '15. Limitation of liability',
      blocks: [
        p("The Company is not liable for damage caused by force majeure, by the member's own fault, or by failures of third-party services it cannot control. It does not guarantee the quality of AI-made results or their fitness for a particular purpose."),
        p(`The Company's total liability to a member in connection with the Service is limited to the greater of the amount the member paid the Company in the ${L.liabilityCapMonths} months before the damage arose and ${L.liabilityCapUsd} US dollars (USD). This limit does not apply to damage caused intentionally or by gross negligence of the Company, or where the law does not allow it.`),
        p(`Compensation for an outage of ${L.outageCompensationHours} hours or more caused by the Company follows the refund policy.`),
      ],
    },
    {
      id: 'data',
      heading: '16. Personal data',
      blocks: [
        p(`The Company protects members' personal data as described in the privacy policy. Account data is kept for up to ${L.retention.accountYearsAfterDeletion} years after the account is deleted, and payment records for as long as the law requires, and then destroyed.`),
      ],
    },
    {
      id: 'misc',
      heading: '17. Time zone, governing law and jurisdiction',
      blocks: [
        p('Dates and times shown in the Service, and every period in these terms, are in Korea Standard Time (Asia/Seoul).'),
        p('These terms are governed by the laws of the Republic of Korea. Disputes about the Service are settled by the court that has jurisdiction under the Korean Civil Procedure Act.'),
        p(`Contact: {supportEmail} (weekdays ${L.supportHours} KST, except public holidays)`),
      ],
    },
  ],
};
