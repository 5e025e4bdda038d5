import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ConfirmUploadRequestSchema,
  ConfirmUploadResponseSchema,
  PresignUploadRequestSchema,
  PresignUploadResponseSchema,
  UPLOAD_LIMITS,
  UploadResponseSchema,
} from '@dewy/contracts';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { userOf } from '../../lib/request-user';
import { confirmUpload, presignUpload, storeDirectUpload } from './uploads.service';

/** Upload calls of spec 001 §7: direct multipart upload and the presigned PUT flow. */
export function uploadsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, { limits: { fileSize: UPLOAD_LIMITS.maxBytes, files: 1, fields: 5, parts: 6 } });

    app.post('/api/image/upload-s3', { config: { access: 'verified' }, schema: { tags: ['uploads'], consumes: ['multipart/form-data'], response: { 200: UploadResponseSchema } } }, async (req) => {
      const user = userOf(req);
      if (!req.isMultipart()) throw new AppError('VALIDATION_FAILED', { message: 'multipart/form-data expected' });
      const file = await req.file();
      if (!file || file.fieldname !== 'image') throw new AppError('VALIDATION_FAILED', { message: 'field image missing' });
      const bytes = await file.toBuffer().catch((err: { code?: string }) => {
        if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('IMAGE_TOO_LARGE');
        throw err;
      });
      if (file.file.truncated) throw new AppError('IMAGE_TOO_LARGE');
      return storeDirectUpload(ctx, user.id, bytes);
    });

    app.post(
      '/api/image/presign-upload',
      { config: { access: 'verified' }, schema: { tags: ['uploads'], body: PresignUploadRequestSchema, response: { 200: PresignUploadResponseSchema } } },
      async (req) => {
        const user = userOf(req);
        return presignUpload(ctx, user.id, req.body);
      },
    );

    app.post(
      '/api/image/confirm-upload',
      { config: { access: 'verified' }, schema: { tags: ['uploads'], body: ConfirmUploadRequestSchema, response: { 200: ConfirmUploadResponseSchema } } },
      async (req) => {
        const user = userOf(req);
        return confirmUpload(ctx, user.id, req.body.key);
      },
    );
  };
}
