import { z } from 'zod';
import { safeText } from './text';

/** Notice board (spec 002 §2–§9). */
export const NOTICES = { pageSize: 10, maxAttachments: 5, titleMax: 200, contentMax: 100_000 } as const;

/** Title and content of a notice; content is HTML written by the administrator (sanitized by the server). */
export const NoticeWriteSchema = z
  .object({
    title: safeText().trim().max(NOTICES.titleMax),
    // Multi-line HTML: line breaks and tabs are allowed, other control characters are not (safeText).
    content: safeText({ multiline: true }).max(NOTICES.contentMax),
    pinned: z.union([z.boolean(), z.literal('1'), z.literal(''), z.literal('true'), z.literal('false'), z.literal('0')]).optional(),
  })
  .strict();
export type NoticeWrite = z.infer<typeof NoticeWriteSchema>;

export const NoticeListQuerySchema = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) });

export interface NoticeSummary {
  id: number;
  title: string;
  pinned: boolean;
  author_name: string | null;
  created_at: string;
}
export interface NoticeListResponse {
  success: true;
  items: NoticeSummary[];
  page: number;
  totalPages: number;
}
export interface NoticeFile {
  id: number;
  file_name: string;
  file_url: string;
}
export interface NoticeDetailResponse {
  success: true;
  notice: NoticeSummary & { content: string; updated_at: string };
  files: NoticeFile[];
}
