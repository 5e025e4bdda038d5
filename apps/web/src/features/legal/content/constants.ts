/**
 * The policy constants the legal texts are written from (spec 002 §9, decision 012 for one-time
 * credits, decision 016 for the choices). The documents in both languages quote these numbers, and
 * content.test.ts checks that each text says them.
 */
export const LEGAL = {
  /** Every document's last change (a calendar day in Asia/Seoul). */
  lastUpdated: '2026-11-27',
  refundWindowDays: 7,
  refundReviewBusinessDays: 1,
  refundPayoutDays: [3, 10],
  renewalReminderDays: [7, 3, 1],
  serviceStartDelayHours: 24,
  takedownDecisionHours: 72,
  takedownRestoreDays: 30,
  liabilityCapMonths: 3,
  liabilityCapUsd: 100,
  outageCompensationHours: 24,
  supportHours: '09:00–18:00',
  minimumAge: 14,
  dormantAfterYears: 1,
  deletionGraceDays: 14,
  retention: {
    uploadedContentDays: 30,
    accountYearsAfterDeletion: 3,
    billingYearsAfterFiscalYear: 5,
    analyticsMonths: 12,
    supportYears: 3,
    backupCycleDays: 35,
  },
  requestAnswerDays: 30,
  noticeMaterialDays: 30,
  noticeOtherDays: 7,
} as const;
