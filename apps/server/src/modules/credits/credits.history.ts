import { sql } from 'drizzle-orm';
import { ledgerReasonText, type CreditHistoryEntry, type CreditHistoryResponse } from '@dewy/contracts';
import type { Db } from '../../db/client';

/**
 * The customer's credit history (issue 10): every ledger entry, newest first, with the running balance
 * after it (a window sum over the whole ledger, computed before paging, so every page is exact) and
 * the job a spend paid for or a refund returned (joined by the spend's idempotency key). Each entry says why
 * as a code with its parameters (`reason_code`, `reason_params`; decision 036) and, for support, in words
 * (`reason`, rebuilt from the code).
 */
export async function creditHistory(db: Db, userId: number, p: { limit: number; offset: number }): Promise<CreditHistoryResponse> {
  const rows = await db.execute(sql`
    select l.id, l.created_at, l.kind, l.bucket, l.delta, l.reason_code, l.reason_params, l.reference,
           l.balance_after, i.job_id, i.source, i.status
      from (select *, sum(delta) over (order by id) as balance_after
              from credit_ledger where user_id = ${userId}) l
      left join jobs i
        on i.user_id = ${userId}
       and i.spend_key = case when l.kind = 'refund' then substr(l.idempotency_key, 8) else l.idempotency_key end
       and l.kind in ('spend', 'refund')
     order by l.id desc
     limit ${p.limit + 1} offset ${p.offset}`);
  const list = (rows as unknown as { rows: Record<string, unknown>[] }).rows ?? (rows as unknown as Record<string, unknown>[]);
  const items: CreditHistoryEntry[] = list.slice(0, p.limit).map((r) => ({
    id: Number(r.id),
    created_at: new Date(r.created_at as string).toISOString(),
    kind: r.kind as CreditHistoryEntry['kind'],
    bucket: r.bucket as CreditHistoryEntry['bucket'],
    delta: Number(r.delta),
    reason: ledgerReasonText(String(r.reason_code), paramsOf(r.reason_params)),
    reason_code: String(r.reason_code),
    reason_params: paramsOf(r.reason_params),
    reference: (r.reference as string | null) ?? null,
    balance_after: Number(r.balance_after),
    job: r.job_id ? { jobId: String(r.job_id), source: String(r.source), status: String(r.status) } : null,
  }));
  const hasMore = list.length > p.limit;
  return { success: true, items, pagination: { hasMore, nextOffset: hasMore ? p.offset + p.limit : null } };
}

/** A jsonb column as the driver hands it (an object; a string on drivers that do not parse jsonb). */
function paramsOf(v: unknown): Record<string, unknown> {
  const o: unknown = typeof v === 'string' ? JSON.parse(v) : v;
  return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : {};
}
