import type { HistoryImage } from '@dewy/contracts';
import { describe, expect, it } from 'vitest';
import { groupHistoryByBatch } from './history-groups';

const item = (id: number, batch_id: string | null = null) => ({ id, batch_id }) as unknown as HistoryImage;

describe('groupHistoryByBatch', () => {
  it('puts the jobs of one batch into one entry where its newest job is, and keeps single jobs apart', () => {
    const entries = groupHistoryByBatch([item(9), item(8, 'b1'), item(7, 'b1'), item(6), item(5, 'b2'), item(4, 'b1'), item(3)]);
    expect(entries.map((e) => (e.kind === 'single' ? e.item.id : `${e.batchId}:${e.items.map((i) => i.id).join(',')}`))).toEqual([9, 'b1:8,7,4', 6, 'b2:5', 3]);
  });

  it('treats a missing or null batch_id (older answers) as a single job', () => {
    expect(groupHistoryByBatch([{ id: 1 } as unknown as HistoryImage, item(2, null)]).every((e) => e.kind === 'single')).toBe(true);
    expect(groupHistoryByBatch([])).toEqual([]);
  });
});
