import { LEGAL as L } from './constants';
import { COMPANY, p, table, ul, type LegalDocument } from './types';

const R = L.retention;

/** Privacy policy (English). Written for Dewy from the constants of spec 002 §9; see decision 016. */
export const privacyEn: LegalDocument = {
  doc: 'privacy',
  locale: 'en',
  title: 'Privacy policy',
  summary: `Dewy collects only what the Service needs, deletes your uploaded photos automatically ${R.uploadedContentDays} days after processing, and sets no analytics or marketing cookies. This policy explains what we collect and why, when we delete it, and what rights you have.`,
  lastUpdated: L.lastUpdated,
  sections: [
    {
      id: 'intro',
      heading: '1. Who we are',
      blocks: [
        p('{companyName} (the "Company") processes the personal data of users of the Dewy service (the "Service") as described below, in line with the Korean Personal Information Protection Act and other applicable law.'),
      ],
    },
    {
      id: 'collected',
      heading: '2. What we collect and why',
      blocks: [
        table(
          ['Category', 'Items', 'Purpose'],
          [
            ['Account data', 'E-mail address, nickname, password (stored only as an irreversible hash), plan, credit balance and history', 'Identifying you, login, managing credits and subscriptions'],
            ['Billing and tax data', "The payment provider's customer, order and subscription identifiers, amounts and dates of payments, refunds (card numbers are kept by the payment provider; the Company never receives them)", 'Processing payments and refunds, tax filings, handling disputes'],
            ['Uploaded content', 'Photos you upload, result images, the retouch options you chose', 'Processing the images you ask for, delivering results, showing your history'],
            ['Usage and analytics', 'IP address, request times, browser details, the login-protection device cookie, job records', 'Security (stopping account takeover and abuse), incident response, aggregate statistics to improve the Service'],
            ['Marketing preferences', 'Whether you agreed to receive promotional messages (default: no)', 'Sending news only to members who opted in'],
            ['Support records', 'E-mails about questions, refunds and reports, and how they were handled', 'Answering you, processing refunds, resolving disputes'],
          ],
        ),
        p('We do not collect resident registration numbers or other unique identifiers, nor sensitive data. Photos with faces are used only to retouch them, never to recognise who a person is (no facial-recognition data).'),
      ],
    },
    {
      id: 'ai',
      heading: '3. AI processing and automatic moderation',
      blocks: [
        p('Uploaded photos are processed automatically by AI models. To keep content that breaks our policy out, an automatic moderation system checks each photo on upload and refuses the ones it judges to be in breach.'),
        p('The Company does not use your photos or results to train AI models.'),
      ],
    },
    {
      id: 'retention',
      heading: '4. How long we keep data, and deletion',
      blocks: [
        table(
          ['Data', 'Kept for'],
          [
            ['Uploaded photos and result images', `${R.uploadedContentDays} days after processing (an hourly automatic job deletes them from storage; your history shows them as "expired")`],
            ['Account data', `Until you delete your account, then up to ${R.accountYearsAfterDeletion} years for disputes and fraud prevention`],
            ['Billing and tax data', `${R.billingYearsAfterFiscalYear} years after the end of the fiscal year (Korean tax law)`],
            ['Usage and analytics data', `${R.analyticsMonths} months`],
            ['Sign-in history (keyed hashes of the IP address and of the login-protection device cookie, never the address or cookie itself)', '30 days; deleted with the account'],
            ['Support records', `${R.supportYears} years (Korean Act on Consumer Protection in Electronic Commerce)`],
          ],
        ),
        p(`After you ask for your account to be deleted you have ${L.deletionGraceDays} days to change your mind; then the account data is destroyed without delay. Copies in backups disappear as backups are overwritten on a ${R.backupCycleDays}-day cycle.`),
        p('Data past its retention period is destroyed: electronic files in a way that cannot be recovered, paper by shredding or incineration.'),
      ],
    },
    {
      id: 'sharing',
      heading: '5. Sharing and processors',
      blocks: [
        p('The Company does not sell your personal data and does not give it to third parties without your consent, except where the law requires.'),
        p('To run the Service, the following work may be entrusted to outside companies, bound by contract not to use the data for anything else:'),
        ul(
          'Payment processing: the payment provider the Company uses (for example Stripe, Inc. or Lemon Squeezy, LLC — United States)',
          'File storage and hosting: cloud storage and hosting providers',
          'Image-processing compute: where an external GPU service is used, its provider (for example RunPod, Inc. — United States)',
        ),
        p('Where a provider is abroad, the data is transferred to and kept on servers in that country for as long as the processing needs. Ask {supportEmail} for the providers currently in use and their countries.'),
      ],
    },
    {
      id: 'cookies',
      heading: '6. Cookies and browser storage',
      blocks: [
        p('The Service sets no analytics cookies and no marketing or advertising cookies, and uses no third-party tracking tools or ads. It uses only what it needs to work:'),
        table(
          ['Name', 'Purpose', 'Kept for'],
          [
            ['dewy_sid', 'Keeps you logged in (a cookie scripts cannot read)', 'Until you log out or the session expires'],
            ['dewy_device', 'Recognises a device you have logged in or signed up from, to stop password-guessing attacks and referral rewards claimed by the referrer\'s own second account', '180 days'],
            ['locale', 'Remembers the language you chose (Korean or English)', '1 year'],
            ['dewy_aff', 'Links a sign-up to the member whose share link you followed (only after clicking a share link)', 'Up to 30 days'],
            ['Browser storage (localStorage)', 'Showing your account in the header, your language and retouch options', 'Until you log out or clear it'],
          ],
        ),
      ],
    },
    {
      id: 'children',
      heading: `7. Children under ${L.minimumAge}`,
      blocks: [p(`The Service is not meant for children under ${L.minimumAge} and does not collect their personal data. An account found to belong to a child under ${L.minimumAge} is deleted without delay.`)],
    },
    {
      id: 'rights',
      heading: '8. Your rights',
      blocks: [
        p('You can at any time ask to see, correct or delete your personal data, to stop its processing, to withdraw your consent, or to have it transferred elsewhere.'),
        p(`Send your request to {supportEmail}. After confirming it is you, we answer within ${L.requestAnswerDays} days. Data the law requires us to keep may be kept for that period despite a deletion request; we tell you when this is the case and why.`),
      ],
    },
    {
      id: 'security',
      heading: '9. Security',
      blocks: [
        ul(
          'Passwords are hashed with argon2id; nobody at the Company can see the original password.',
          'All traffic is encrypted (HTTPS), and the session cookie cannot be read by scripts.',
          'Uploaded files can be reached only through signed, expiring addresses, and administrative functions only by the administrator account.',
          'Repeated failed logins and bursts of sign-ups are throttled to prevent account takeover.',
        ),
      ],
    },
    {
      id: 'officer',
      heading: '10. Privacy officer and complaints',
      blocks: [
        p('Privacy officer: {ceo}'),
        p('Privacy enquiries: {supportEmail}'),
        COMPANY,
        p('You can also report a privacy problem or ask for advice to these Korean bodies:'),
        ul(
          'Personal Information Infringement Report Center: privacy.kisa.or.kr / 118 (in Korea)',
          'Personal Information Dispute Mediation Committee: www.kopico.go.kr / 1833-6972',
          "Supreme Prosecutors' Office Cyber Investigation: www.spo.go.kr / 1301 (in Korea)",
          'Korean National Police Agency Cyber Bureau: ecrm.police.go.kr / 182 (in Korea)',
        ),
      ],
    },
    {
      id: 'changes',
      heading: '11. Changes to this policy',
      blocks: [
        p(`Changes are announced on the notice board ${L.noticeOtherDays} days before they take effect; material changes, such as new data items or purposes, ${L.noticeMaterialDays} days before.`),
        p('Dates and periods in this policy are in Korea Standard Time (Asia/Seoul).'),
      ],
    },
  ],
};
