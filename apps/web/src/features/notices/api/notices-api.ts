import type { NoticeDetailResponse, NoticeListResponse } from '@dewy/contracts';
import { api } from '../../../lib/api-client';

/** The notice board calls of spec 002 §7 (shapes in @dewy/contracts notices.ts); all send credentials. */

/** GET /api/notices?page=n: one page of 10, pinned first. */
export function fetchNotices(page: number, signal?: AbortSignal): Promise<NoticeListResponse> {
  return api.get('/api/notices', { query: { page }, signal, skipAuthEvent: true });
}

/** GET /api/notices/{id}: the notice (sanitized HTML content) and its attachments. */
export function fetchNotice(id: number, signal?: AbortSignal): Promise<NoticeDetailResponse> {
  return api.get('/api/notices/{id}', { path: { id }, signal, skipAuthEvent: true });
}

/** POST /api/notices as multipart: title, content, pinned ('1' or empty) and repeated `files`. */
export function createNotice(input: { title: string; content: string; pinned: boolean; files: File[] }): Promise<{ success: true; id: number }> {
  const form = new FormData();
  form.append('title', input.title);
  form.append('content', input.content);
  form.append('pinned', input.pinned ? '1' : '');
  for (const f of input.files) form.append('files', f, f.name);
  return api.post('/api/notices', { body: form });
}

/** PUT /api/notices/{id} as JSON: title, content, pinned. */
export function updateNotice(id: number, input: { title: string; content: string; pinned: boolean }): Promise<{ success: true }> {
  return api.put('/api/notices/{id}', { path: { id }, body: input });
}

/** DELETE /api/notices/{id}. */
export function deleteNotice(id: number): Promise<{ success: true }> {
  return api.delete('/api/notices/{id}', { path: { id } });
}

/** POST /api/notices/images: one pasted, dropped or chosen image; answers the URL to insert as `<img src>`. */
export function uploadNoticeImage(file: File): Promise<{ success: true; imageUrl: string }> {
  const form = new FormData();
  form.append('image', file, file.name || 'image.png');
  return api.post('/api/notices/images', { body: form });
}
