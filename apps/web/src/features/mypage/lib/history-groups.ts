import type { HistoryImage } from '@dewy/contracts';

/** One entry of a history list: a single job, or the jobs of one batch (issue 24) in the list's order. */
export type HistoryEntry = { kind: 'single'; item: HistoryImage } | { kind: 'batch'; batchId: string; items: HistoryImage[] };

/**
 * Groups a history list (newest first) into entries: every job of one batch becomes one entry at the
 * place of its newest job, its jobs in the list's order; jobs without `batch_id` stay single. Pages
 * loaded later ("load more") join the batch entry they belong to.
 * @param items history items as `/api/image/history` answers them, newest first
 */
export function groupHistoryByBatch(items: readonly HistoryImage[]): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  const batches = new Map<string, HistoryImage[]>();
  for (const item of items) {
    const id = item.batch_id;
    if (!id) {
      out.push({ kind: 'single', item });
      continue;
    }
    const group = batches.get(id);
    if (group) {
      group.push(item);
      continue;
    }
    const fresh = [item];
    batches.set(id, fresh);
    out.push({ kind: 'batch', batchId: id, items: fresh });
  }
  return out;
}
