/**
 * modules/credits — the ledger: the one writer of money (decisions 004, 029). Sits below the kernel,
 * the tools, auth, account, billing and affiliate; imports no other module. This index is its public face (decision 039): what routes.ts, tools.ts, the entry points, the other modules and the tests outside this folder import. Files of the module and the tests beside them use its internals.
 */

// Routes (routes.ts).
export { creditsRoutes } from './credits.routes';

// The ledger's write path (one transaction per operation, idempotency keys honoured) and its reads.
export {
  getBalance,
  grant,
  spend,
  refund,
  refundPart,
  reclaim,
  expireSubscriptionPeriods,
  creditPeriods,
  ledgerSums,
  SPENDING_ORDER,
  type CreditBucket,
  type BucketAmounts,
  type CreditBalance,
  type SpendResult,
  type RefundResult,
  type CreditPeriodRef,
} from './credits.service';
