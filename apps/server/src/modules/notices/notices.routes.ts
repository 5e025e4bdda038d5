import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  NOTICES,
  NoticeCreatedResponseSchema,
  NoticeDetailResponseSchema,
  NoticeImageResponseSchema,
  NoticeListQuerySchema,
  NoticeListResponseSchema,
  NoticeWriteSchema,
  SuccessResponseSchema,
  UPLOAD_LIMITS,
} from '@dewy/contracts';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { userOf } from '../../lib/request-user';
import { createNotice, deleteNotice, getNotice, listNotices, readNoticeFile, updateNotice, uploadInlineImage } from './notices.service';

const IdParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
/** Writes are the administrator's; anyone else signed in gets 'No write permission.' (002 §5). */
const ADMIN_WRITE = { access: 'admin' as const, adminDeniedCode: 'NO_WRITE_PERMISSION' as const };

/** Reads the multipart fields and image files of a notice form (002 §7). */
async function readNoticeForm(req: Parameters<typeof userOf>[0]) {
  if (!req.isMultipart()) throw new AppError('VALIDATION_FAILED', { message: 'multipart/form-data expected' });
  const fields: Record<string, string> = {};
  const files: { fileName: string; bytes: Buffer }[] = [];
  for await (const part of req.parts()) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer().catch((err: { code?: string }) => {
        if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('IMAGE_TOO_LARGE');
        throw err;
      });
      if (bytes.length) files.push({ fileName: part.filename || 'image', bytes });
    } else {
      fields[part.fieldname] = String(part.value);
    }
  }
  return { fields, files };
}

/** The notice board calls of spec 002 §7 plus the editor's image upload and the public file route. */
export function noticesRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, {
      limits: { fileSize: UPLOAD_LIMITS.maxBytes, files: NOTICES.maxAttachments + 5, fields: 6, parts: NOTICES.maxAttachments + 11, fieldSize: NOTICES.contentMax * 4 },
    });

    app.get('/api/notices', { config: { access: 'public' }, schema: { tags: ['notices'], querystring: NoticeListQuerySchema, response: { 200: NoticeListResponseSchema } } }, async (req) => listNotices(ctx, req.query.page));

    app.get('/api/notices/:id', { config: { access: 'public' }, schema: { tags: ['notices'], params: IdParams, response: { 200: NoticeDetailResponseSchema } } }, async (req) => getNotice(ctx, req.params.id));

    app.post('/api/notices', { config: ADMIN_WRITE, schema: { tags: ['notices'], consumes: ['multipart/form-data'], response: { 201: NoticeCreatedResponseSchema } } }, async (req, reply) => {
      const user = userOf(req);
      const { fields, files } = await readNoticeForm(req);
      const parsed = NoticeWriteSchema.safeParse({ title: fields.title ?? '', content: fields.content ?? '', pinned: fields.pinned });
      if (!parsed.success) throw new AppError('VALIDATION_FAILED', { details: parsed.error.issues });
      const created = await createNotice(ctx, { id: user.id, nickname: user.nickname }, parsed.data, files);
      return reply.code(201).send(created);
    });

    app.put('/api/notices/:id', { config: ADMIN_WRITE, schema: { tags: ['notices'], params: IdParams, body: NoticeWriteSchema, response: { 200: SuccessResponseSchema } } }, async (req) =>
      updateNotice(ctx, req.params.id, req.body),
    );

    app.delete('/api/notices/:id', { config: ADMIN_WRITE, schema: { tags: ['notices'], params: IdParams, response: { 200: SuccessResponseSchema } } }, async (req) => deleteNotice(ctx, req.params.id));

    app.post('/api/notices/images', { config: ADMIN_WRITE, schema: { tags: ['notices'], consumes: ['multipart/form-data'], response: { 200: NoticeImageResponseSchema } } }, async (req) => {
      const { files } = await readNoticeForm(req);
      if (files.length !== 1) throw new AppError('VALIDATION_FAILED', { message: 'exactly one image expected' });
      return uploadInlineImage(ctx, files[0]!.fileName, files[0]!.bytes);
    });

    app.get('/api/notices/files/:id', { config: { access: 'public' }, schema: { tags: ['notices'], params: IdParams } }, async (req, reply) => {
      const f = await readNoticeFile(ctx, req.params.id);
      return reply
        .header('content-type', f.mime)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=86400')
        .header('cross-origin-resource-policy', 'same-origin')
        .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(f.fileName)}`)
        .send(f.bytes);
    });
  };
}
