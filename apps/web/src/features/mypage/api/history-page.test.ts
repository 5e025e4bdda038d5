import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SeedreamHistoryItem } from '@dewy/contracts';
import { HistoryImageSchema } from '@dewy/contracts';
import { fetchCompletedHistoryPage } from './history-page';

function item(id: number, urls: string[]): SeedreamHistoryItem {
  return {
    id, seedream_task_id: `sd-${id}`, run_id: `run-${id}`, status: 'completed', run_status: 'succeeded', state: 'succeeded',
    all_image_urls: urls, image_urls: urls, image_url: urls[0] ?? null, prompt: 'a cat', seed: 7, size: '2048x2048',
    num_images: urls.length, ref_image_urls: ['/r.jpg'], original_image_url: '/r.jpg', error_code: null, cost: 15, created_at: '2026-11-20T01:02:03.000Z',
  };
}

/** Answers each call with the next scripted body and records the asked URLs. */
function stubFetch(bodies: unknown[]): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    asked.push(url);
    return new Response(JSON.stringify(bodies.shift()), { status: 200, headers: { 'content-type': 'application/json' } });
  }));
  return asked;
}

afterEach(() => vi.unstubAllGlobals());

describe("My Page's history pages", () => {
  it('reads the Image Edit tab from /api/seedream/history (001 §7) and shows each edit as a history image', async () => {
    const asked = stubFetch([{ success: true, items: [item(5, ['/a.png', '/b.png'])], pagination: { nextOffset: 25, hasMore: true } }]);
    const page = await fetchCompletedHistoryPage(42, 'seedream', 25, 0);
    expect(asked).toEqual(['/api/seedream/history?grouped=1&status=completed&limit=25&offset=0']);
    expect(page.pagination).toEqual({ hasMore: true, nextOffset: 25 });
    expect(page.images).toHaveLength(1);
    const img = HistoryImageSchema.parse(page.images[0]);
    expect(img).toMatchObject({ id: 5, source: 'seedream', image_url: '/a.png', all_image_urls: ['/a.png', '/b.png'], original_image_url: '/r.jpg', prompt: 'a cat', cost: 15 });
  });

  it('skips pages that retention emptied, so an empty page never ends the list', async () => {
    const asked = stubFetch([
      { success: true, items: [], pagination: { nextOffset: 5, hasMore: true } },
      { success: true, items: [item(3, ['/c.png'])], pagination: { nextOffset: null, hasMore: false } },
    ]);
    const page = await fetchCompletedHistoryPage(42, 'seedream', 5, 0);
    expect(asked.map((u) => new URL(u, 'http://x').searchParams.get('offset'))).toEqual(['0', '5']);
    expect(page.images.map((i) => i.id)).toEqual([3]);
    expect(page.pagination).toEqual({ hasMore: false, nextOffset: null });
  });

  it('reads the other tabs from /api/image/history/{userId}', async () => {
    const asked = stubFetch([{ images: [], pagination: { hasMore: false, nextOffset: null } }]);
    await fetchCompletedHistoryPage(42, 'kling', 25, 0);
    expect(asked).toEqual(['/api/image/history/42?source=kling&status=completed&limit=25&offset=0']);
  });
});
