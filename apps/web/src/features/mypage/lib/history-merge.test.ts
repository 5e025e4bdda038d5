import type { HistoryImage, HistorySource } from '@dewy/contracts';
import { describe, expect, it } from 'vitest';
import { HISTORY_PAGE, emptyCursor, pageSizeFor, settledItems, sourcesToFetch, visibleHistory, withPage, type SourceCursor } from './history-merge';

const T0 = Date.parse('2026-11-01T00:00:00Z');

/** A completed item of `source` made `minute` minutes after T0 (bigger = newer). */
function item(id: number, source: HistorySource, minute: number): HistoryImage {
  const at = new Date(T0 + minute * 60_000).toISOString();
  return {
    id, image_url: `/i/${id}.jpg`, original_image_url: null, thumbnail_url: null, all_image_urls: [], status: 'completed', source,
    runpod_job_id: null, prompt: null, seed: null, cost: 80, width: null, height: null, original_width: null, original_height: null,
    kling_task_id: null, seedream_task_id: null, input: null, created_at: at, updated_at: at,
  };
}

/** A fake server: `rows` newest first, answered `limit` at a time. */
function serve(rows: HistoryImage[], limit: number, offset: number) {
  const images = rows.slice(offset, offset + limit);
  const hasMore = offset + limit < rows.length;
  return { images, pagination: { hasMore, nextOffset: hasMore ? offset + limit : null } };
}

/** Runs the fetch loop the hook runs until `target` is shown or nothing is left. */
function fill(cursors: SourceCursor[], target: number, db: Record<string, HistoryImage[]>): { cursors: SourceCursor[]; calls: string[] } {
  const calls: string[] = [];
  let next = cursors;
  for (let guard = 0; guard < 100; guard++) {
    const ask = sourcesToFetch(next, target);
    if (!ask.length) break;
    next = next.map((c) => {
      if (!ask.includes(c)) return c;
      const size = pageSizeFor(c);
      calls.push(`${c.source}:${c.nextOffset}+${size}`);
      return withPage(c, serve(db[c.source] ?? [], size, c.nextOffset));
    });
  }
  return { cursors: next, calls };
}

const newestFirst = (rows: HistoryImage[]) => [...rows].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id);

describe('My Page history paging (25 first, then 5 per load more)', () => {
  it('one source: 25, then 5 more per load more, then the end', () => {
    const rows = newestFirst(Array.from({ length: 33 }, (_, i) => item(i + 1, 'upscale', i)));
    const db = { upscale: rows };
    let { cursors, calls } = fill([emptyCursor('upscale')], HISTORY_PAGE.first, db);
    expect(calls).toEqual(['upscale:0+25']);
    let view = visibleHistory(cursors, HISTORY_PAGE.first);
    expect(view.items.map((i) => i.id)).toEqual(rows.slice(0, 25).map((i) => i.id));
    expect(view.canLoadMore).toBe(true);

    ({ cursors, calls } = fill(cursors, 30, db));
    expect(calls).toEqual(['upscale:25+5']);
    view = visibleHistory(cursors, 30);
    expect(view.items).toHaveLength(30);
    expect(view.canLoadMore).toBe(true);

    ({ cursors, calls } = fill(cursors, 35, db));
    expect(calls).toEqual(['upscale:30+5']);
    view = visibleHistory(cursors, 35);
    expect(view.items.map((i) => i.id)).toEqual(rows.map((i) => i.id));
    expect(view.canLoadMore).toBe(false);
  });

  it('an empty source shows nothing and offers no more', () => {
    const { cursors, calls } = fill([emptyCursor('face_edit')], 25, {});
    expect(calls).toEqual(['face_edit:0+25']);
    expect(visibleHistory(cursors, 25)).toEqual({ items: [], canLoadMore: false });
  });

  it('nothing is settled before every open source has answered', () => {
    const a = withPage(emptyCursor('kling'), serve([item(1, 'kling', 5)], 25, 0));
    expect(settledItems([a, emptyCursor('consistency')])).toEqual([]);
  });

  it('two sources merge newest first and never reorder as pages arrive', () => {
    // kling: every even minute, consistency: every odd minute, interleaved over 80 minutes.
    const kling = newestFirst(Array.from({ length: 40 }, (_, i) => item(1000 + i, 'kling', i * 2)));
    const cons = newestFirst(Array.from({ length: 40 }, (_, i) => item(2000 + i, 'consistency', i * 2 + 1)));
    const db = { kling, consistency: cons };
    const all = newestFirst([...kling, ...cons]);
    let cursors = [emptyCursor('kling'), emptyCursor('consistency')];
    const shown: number[][] = [];
    for (let target = 25; target <= 85; target += 5) {
      cursors = fill(cursors, target, db).cursors;
      const view = visibleHistory(cursors, target);
      shown.push(view.items.map((i) => i.id));
      expect(view.items.map((i) => i.id)).toEqual(all.slice(0, Math.min(target, all.length)).map((i) => i.id));
    }
    // Each page extends the one before it.
    for (let k = 1; k < shown.length; k++) expect(shown[k]!.slice(0, shown[k - 1]!.length)).toEqual(shown[k - 1]);
    expect(visibleHistory(cursors, 85).canLoadMore).toBe(false);
  });

  it('a source much older than the other is only asked when its items are due', () => {
    const recent = newestFirst(Array.from({ length: 60 }, (_, i) => item(i + 1, 'kling', 1000 + i)));
    const old = newestFirst(Array.from({ length: 3 }, (_, i) => item(500 + i, 'consistency', i)));
    const db = { kling: recent, consistency: old };
    let { cursors, calls } = fill([emptyCursor('kling'), emptyCursor('consistency')], 25, db);
    expect(calls).toEqual(['kling:0+25', 'consistency:0+25']);
    expect(visibleHistory(cursors, 25).items.every((i) => i.source === 'kling')).toBe(true);
    ({ cursors, calls } = fill(cursors, 30, db));
    expect(calls).toEqual(['kling:25+5']); // the closed source is never asked again
    ({ cursors } = fill(cursors, 65, db));
    const view = visibleHistory(cursors, 65);
    expect(view.items).toHaveLength(63);
    expect(view.items.slice(-3).map((i) => i.source)).toEqual(['consistency', 'consistency', 'consistency']);
    expect(view.canLoadMore).toBe(false);
  });

  it('a page repeating items (rows added meanwhile shift the offsets) keeps each id once', () => {
    const c = withPage(emptyCursor('upscale'), serve([item(3, 'upscale', 3), item(2, 'upscale', 2)], 2, 0));
    const again = withPage(c, { images: [item(2, 'upscale', 2), item(1, 'upscale', 1)], pagination: { hasMore: false, nextOffset: null } });
    expect(again.items.map((i) => i.id)).toEqual([3, 2, 1]);
    expect(again.hasMore).toBe(false);
  });

  it('an empty page closes a source even if it claims more (no endless loop)', () => {
    const c = withPage(emptyCursor('upscale'), { images: [], pagination: { hasMore: true, nextOffset: 25 } });
    expect(c.hasMore).toBe(false);
  });
});
