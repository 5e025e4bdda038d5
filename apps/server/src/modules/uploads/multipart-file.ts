import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';

/**
 * The bytes of the one file of a multipart request under `field` (the route registered
 * @fastify/multipart with its size limit): the page's `/api/image/upload-s3` (`image`) and `/v1/uploads`
 * (`file`) read their photo through it.
 * @throws AppError VALIDATION_FAILED (not multipart, or no file under `field`, naming the field),
 *   IMAGE_TOO_LARGE (over the registered limit)
 */
export async function readMultipartFile(req: FastifyRequest, field: string): Promise<Buffer> {
  if (!req.isMultipart()) throw new AppError('VALIDATION_FAILED', { message: 'multipart/form-data expected', details: [{ field, rule: 'required' }] });
  const file = await req.file();
  if (!file || file.fieldname !== field) throw new AppError('VALIDATION_FAILED', { message: `field ${field} missing`, details: [{ field, rule: 'required' }] });
  const bytes = await file.toBuffer().catch((err: { code?: string }) => {
    if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('IMAGE_TOO_LARGE');
    throw err;
  });
  if (file.file.truncated) throw new AppError('IMAGE_TOO_LARGE');
  return bytes;
}
