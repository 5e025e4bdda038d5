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

/** The answers of the notice calls, declared on their routes (decision 038: the contract carries them). */
export const NoticeSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  pinned: z.boolean(),
  author_name: z.string().nullable(),
  created_at: z.string(),
});
export type NoticeSummary = z.infer<typeof NoticeSummarySchema>;

/** GET /api/notices?page= */
export const NoticeListResponseSchema = z.object({
  success: z.literal(true),
  items: z.array(NoticeSummarySchema),
  page: z.number().int(),
  totalPages: z.number().int(),
});
export type NoticeListResponse = z.infer<typeof NoticeListResponseSchema>;

export const NoticeFileSchema = z.object({ id: z.number().int(), file_name: z.string(), file_url: z.string() });
export type NoticeFile = z.infer<typeof NoticeFileSchema>;

/** GET /api/notices/{id} */
export const NoticeDetailResponseSchema = z.object({
  success: z.literal(true),
  notice: NoticeSummarySchema.extend({ content: z.string(), updated_at: z.string() }),
  files: z.array(NoticeFileSchema),
});
export type NoticeDetailResponse = z.infer<typeof NoticeDetailResponseSchema>;

/** POST /api/notices (201): the new notice's id. */
export const NoticeCreatedResponseSchema = z.object({ success: z.literal(true), id: z.number().int() });
/** POST /api/notices/images: the stored image's URL for the editor. */
export const NoticeImageResponseSchema = z.object({ success: z.literal(true), imageUrl: z.string() });
