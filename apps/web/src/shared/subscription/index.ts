/** The subscription layer shared by the pricing page and My Page: state rules, status query, the block. */
export * from './lib/subscription-state';
export { useSubscriptionStatus, useInvalidateSubscriptionStatus } from './hooks/use-subscription-status';
export { SubscriptionBlock } from './components/subscription-block';
export { PaymentIssueBanner } from './components/payment-issue-banner';
