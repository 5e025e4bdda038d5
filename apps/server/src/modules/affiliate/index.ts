/**
 * modules/affiliate — codes, clicks, sign-up attribution and the sharer's rewards (decision 013). Sits
 * above the ledger and the users; auth attributes sign-ups and billing rewards payments through it.
 * This index is its public face (decision 039): what routes.ts, tools.ts, the entry points, the other modules and the tests outside this folder import. Files of the module and the tests beside them use its internals.
 */

// Routes (routes.ts).
export { affiliateRoutes } from './affiliate.routes';

// Sign-up attribution (auth) and rewards on payments and refunds (billing).
export { AFFILIATE_COOKIE, attributeSignup, readAttributionCookie, attributionCookie, rewardReferral, reverseReward, REWARD_SHARE } from './affiliate.service';
