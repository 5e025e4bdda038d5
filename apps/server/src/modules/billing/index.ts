/**
 * modules/billing — checkout, subscriptions, plan changes, webhooks and their credit grants, renewal
 * reminders, the sandbox provider (decisions 012, 014, 027–030). Sits above auth, affiliate and the
 * ledger. This index is its public face (decision 039): what routes.ts, tools.ts, the entry points, the other modules and the tests outside this folder import. Files of the module and the tests beside them use its internals.
 */

// Routes (routes.ts; the sandbox's only when PAYMENTS_PROVIDER=sandbox, Paddle's checkout page only with paddle) and the operator token (billing-cli.ts).
export { billingRoutes } from './billing.routes';
export { sandboxRoutes, operatorToken } from './sandbox.routes';
export { paddleRoutes } from './paddle.routes';

// The provider port and its adapters (bootstrap.ts; tests point adapters at fake servers).
export { createPaymentsProvider } from './providers';
export { createStripeProvider } from './providers/stripe.provider';
export { createLemonSqueezyProvider } from './providers/lemonsqueezy.provider';
export { createPaddleProvider } from './providers/paddle.provider';
export type { SandboxProvider } from './providers/sandbox.provider';
export { PaymentProviderError, type PaymentsProvider } from './payments-provider';

// Services others call: the account deletion cancels the subscription.
export { cancelSubscription } from './billing.service';

// Scheduled jobs (bootstrap.ts).
export { sendRenewalReminders } from './renewal-reminders.service';
