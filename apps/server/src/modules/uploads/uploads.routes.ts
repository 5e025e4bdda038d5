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
import { userOf } from '../../lib/request-user';
import { confirmUpload, presignUpload, storeDirectUpload } from './uploads.service';
import { readMultipartFile } from './multipart-file';

/** Upload calls of spec 001 §7: direct multipart upload and the presigned PUT flow. */
export function uploadsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, { limits: { fileSize: UPLOAD_LIMITS.maxBytes, files: 1, fields: 5, parts: 6 } });

    app.post('/api/image/upload-s3', { config: { access: 'verified' }, schema: { tags: ['uploads'], consumes: ['multipart/form-data'], response: { 200: UploadResponseSchema } } }, async (req) => {
      const user = userOf(req);
      return storeDirectUpload(ctx, user.id, await readMultipartFile(req, 'image'));
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
