import { and, desc, eq } from 'drizzle-orm';
import type { BillingHistoryEntry, BillingHistoryKind, BillingHistoryResponse, Currency, ReceiptResponse } from '@dewy/contracts';
import type { AppServices } from '../../context';
import { billingPayments, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';

/**
 * The billing history and our receipts (issue 25, decision 041), read from `billing_payments` — the
 * record of every order and invoice the provider's webhooks told us about, with what it granted and
 * took back. One payment row gives one line (purchase, subscription, renewal, upgrade or failed
 * charge) and, once money was given back, a second line for the refund, dated when it was recorded.
 * A payment still open (a checkout or a retry under way) or void shows no line.
 */

type PaymentRow = typeof billingPayments.$inferSelect;

/** History lines per page (newest first). */
export const BILLING_HISTORY_PAGE = 25;
/** Most payment rows read for one account's history (about 80 years of monthly renewals). */
const MAX_ROWS = 1000;

/** The line kind of a payment row; null for a row that is not (yet) a payment the customer made. */
function kindOf(row: PaymentRow): BillingHistoryKind | null {
  if (row.status === 'failed') return 'failed';
  if (row.status !== 'paid' && row.status !== 'refunded') return null;
  if (row.kind === 'order') return 'purchase';
  // A stale invoice (its period was already credited) keeps its reason after the prefix.
  const reason = row.reason.replace(/^stale:/, '');
  if (reason === 'initial') return 'subscription';
  if (reason === 'upgrade') return 'upgrade';
  return 'renewal';
}

/**
 * Where the line's receipt is: the provider's page stored with the payment; for a provider whose
 * receipt links expire (Paddle's invoice PDF) our redirect that asks it for a fresh one
 * (`/api/billing/receipts/{id}/provider`); else ours (a path the page routes).
 */
function receiptOf(row: PaymentRow, freshLinks: boolean): string {
  if (row.receiptUrl) return row.receiptUrl;
  return freshLinks ? `/api/billing/receipts/${row.id}/provider` : `/mypage/receipts/${row.id}`;
}

/** The history lines of payment rows, newest first (ties: the refund after its payment, then by id). */
export function historyLines(rows: PaymentRow[], freshLinksFrom: string | null = null): BillingHistoryEntry[] {
  const lines: BillingHistoryEntry[] = [];
  for (const row of rows) {
    const kind = kindOf(row);
    if (!kind) continue;
    const base = { paymentId: row.id, item: row.item, currency: row.currency as Currency, method: row.method };
    lines.push({
      ...base,
      id: `p${row.id}`,
      kind,
      at: row.createdAt.toISOString(),
      amount: row.amountMinor,
      credits: kind === 'failed' ? 0 : row.creditsGranted,
      receiptUrl: kind === 'failed' ? null : receiptOf(row, row.provider === freshLinksFrom),
    });
    if (row.refundedMinor > 0 && kind !== 'failed') {
      lines.push({
        ...base,
        id: `r${row.id}`,
        kind: 'refund',
        at: (row.refundedAt ?? row.updatedAt).toISOString(),
        amount: -row.refundedMinor,
        credits: -row.creditsReclaimed,
        receiptUrl: receiptOf(row, row.provider === freshLinksFrom),
      });
    }
  }
  return lines.sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1));
}

/** The keyset position of a line: its instant and id. */
const cursorOf = (line: BillingHistoryEntry) => `${line.at}|${line.id}`;

/**
 * GET /api/billing/history: the caller's lines, newest first, {@link BILLING_HISTORY_PAGE} a page,
 * from after `before` (the `nextCursor` of the previous page).
 * @throws VALIDATION_FAILED for a cursor that is not one this call gave.
 */
export async function billingHistory(s: Pick<AppServices, 'database' | 'payments'>, userId: number, before?: string): Promise<BillingHistoryResponse> {
  if (before !== undefined && !/^\d{4}-\d\d-\d\dT[\d:.]+Z\|[pr]\d{1,12}$/.test(before)) throw new AppError('VALIDATION_FAILED', { message: 'before: not a history cursor' });
  const rows = await s.database.db.select().from(billingPayments).where(eq(billingPayments.userId, userId)).orderBy(desc(billingPayments.createdAt), desc(billingPayments.id)).limit(MAX_ROWS);
  const all = historyLines(rows, s.payments?.freshReceiptUrl ? s.payments.name : null);
  const start = before === undefined ? 0 : all.findIndex((l) => cursorOf(l) < before);
  const page = start < 0 ? [] : all.slice(start, start + BILLING_HISTORY_PAGE);
  const last = page[page.length - 1];
  const more = start >= 0 && start + BILLING_HISTORY_PAGE < all.length;
  return { success: true, entries: page, nextCursor: more && last ? cursorOf(last) : null };
}

/** `YYYYMMDD` of an instant in Korean time (receipt numbers). */
function seoulDay(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at).replaceAll('-', '');
}

/**
 * GET /api/billing/receipts/{paymentId}: our receipt of one of the caller's payments (the page prints
 * it with the seller's details of /api/site-info). Only a payment that was taken has one.
 * @throws NOT_FOUND for another account's payment, an unknown id, or a charge that failed or is open.
 */
export async function receipt(s: Pick<AppServices, 'database'>, userId: number, paymentId: number): Promise<ReceiptResponse> {
  const row = (await s.database.db.select().from(billingPayments).where(and(eq(billingPayments.id, paymentId), eq(billingPayments.userId, userId))))[0];
  const kind = row ? kindOf(row) : null;
  if (!row || !kind || kind === 'failed') throw new AppError('NOT_FOUND');
  const owner = (await s.database.db.select({ email: users.email, nickname: users.nickname }).from(users).where(eq(users.id, userId)))[0];
  const refunded = row.refundedMinor;
  return {
    success: true,
    receipt: {
      number: `DEWY-${seoulDay(row.createdAt)}-${String(row.id).padStart(6, '0')}`,
      paymentId: row.id,
      kind,
      item: row.item,
      paidAt: row.createdAt.toISOString(),
      amount: row.amountMinor,
      currency: row.currency as Currency,
      method: row.method,
      credits: row.creditsGranted,
      refunded,
      refundedAt: refunded > 0 ? (row.refundedAt ?? row.updatedAt).toISOString() : null,
      status: refunded <= 0 ? 'paid' : refunded >= row.amountMinor ? 'refunded' : 'partially_refunded',
      provider: row.provider,
      providerPaymentId: row.providerId,
      customer: { email: owner?.email ?? '', name: owner?.nickname || null },
    },
  };
}

/**
 * GET /api/billing/receipts/{paymentId}/provider: a redirect to the provider's own receipt of one of the
 * caller's payments, asked for at the click (Paddle's invoice PDF links expire). Another account's, a
 * failed or an open payment, or one the provider in use did not take: NOT_FOUND; the provider has no
 * receipt for it: our receipt page instead.
 * @returns the URL to redirect to (absolute, or our receipt page's path).
 */
export async function providerReceiptUrl(s: Pick<AppServices, 'database' | 'payments'>, userId: number, paymentId: number): Promise<string> {
  const row = (await s.database.db.select().from(billingPayments).where(and(eq(billingPayments.id, paymentId), eq(billingPayments.userId, userId))))[0];
  const kind = row ? kindOf(row) : null;
  if (!row || !kind || kind === 'failed') throw new AppError('NOT_FOUND');
  if (row.receiptUrl) return row.receiptUrl;
  const provider = s.payments;
  if (!provider?.freshReceiptUrl || provider.name !== row.provider) throw new AppError('NOT_FOUND');
  return (await provider.freshReceiptUrl(row.kind, row.providerId)) ?? `/mypage/receipts/${row.id}`;
}
