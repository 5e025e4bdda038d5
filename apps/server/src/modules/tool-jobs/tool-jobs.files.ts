import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { discardDirectUpload, storeDirectUpload } from '../uploads';
import type { ToolDefinition, ToolFiles, ToolRequestFile } from './tool-definition';

/**
 * Files sent with a tool's request (decision 035): how the kernel reads them from a multipart form,
 * fingerprints them for the Idempotency-Key, stores them as the caller's confirmed uploads before the
 * charge, and discards them when the request does not become their job.
 */

/** The sent files the tool declares, empty ones left out (an empty file part = no file). */
export function sentFiles(files: ToolFiles, sent: Readonly<Record<string, ToolRequestFile>> | undefined): Record<string, ToolRequestFile> {
  const out: Record<string, ToolRequestFile> = {};
  for (const [field, file] of Object.entries(sent ?? {})) {
    if (!(field in files.fields)) throw new AppError('VALIDATION_FAILED', { message: `unexpected file field ${field}` });
    if (file.bytes.length > 0) out[field] = file;
  }
  return out;
}

/**
 * What the Idempotency-Key compares for a request with files: the input with each file key holding
 * the sha256 (hex) of the bytes as sent, or null — not where a file was stored, which differs on
 * every try. (The same value as image generation's fingerprint before decision 035, so keys of jobs
 * made before still replay.)
 */
export function fingerprintedInput(files: ToolFiles, input: unknown, sent: Readonly<Record<string, ToolRequestFile>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const [field, key] of Object.entries(files.fields)) {
    const file = sent[field];
    out[key] = file ? createHash('sha256').update(file.bytes).digest('hex') : null;
  }
  return out;
}

/** Files stored for a request: the input fields naming them, and how to take them back. */
export interface AcceptedFiles {
  /** Input key → the stored upload's URL. */
  inputFields: Record<string, string>;
  /** Deletes every file stored for this request (rows and objects); best effort, never throws. */
  discard(): Promise<void>;
}

/**
 * Stores the checked files through the upload pipeline (re-encode, screening, quota) as confirmed
 * uploads of `files.kind`; when one fails, those stored before it are discarded and the error thrown.
 * @param toStore field → the bytes `files.check` returned
 * @throws AppError of the upload pipeline (IMAGE_CORRUPT, NSFW_CONTENT_DETECTED, UPLOAD_STORAGE_FULL…)
 */
export async function acceptFiles(ctx: AppContext, files: ToolFiles | undefined, userId: number, toStore: Readonly<Record<string, Buffer>>): Promise<AcceptedFiles> {
  const inputFields: Record<string, string> = {};
  const urls: string[] = [];
  const discard = async () => {
    for (const url of urls) await discardDirectUpload(ctx, userId, url);
  };
  try {
    for (const [field, bytes] of Object.entries(toStore)) {
      const key = files?.fields[field];
      if (!key) throw new AppError('INTERNAL', { message: `file field ${field} is not the tool's` });
      const { imageUrl } = await storeDirectUpload(ctx, userId, bytes, files.kind);
      urls.push(imageUrl);
      inputFields[key] = imageUrl;
    }
  } catch (err) {
    await discard();
    throw err;
  }
  return { inputFields, discard };
}

/**
 * Reads a tool's multipart request (its route registered @fastify/multipart): the text fields parsed
 * with `tool.files.form`, each file key of the input null (the kernel fills it once the file is
 * stored), and the files by field, at most one per declared field.
 * @returns the input (parsed with the tool's own schema) and the files
 * @throws AppError VALIDATION_FAILED (not multipart, an unexpected or repeated file field, invalid fields,
 *   with the issues as details), IMAGE_TOO_LARGE (a file over `files.maxBytes`)
 */
export async function readToolForm<S extends z.ZodType>(req: FastifyRequest, tool: ToolDefinition<S>): Promise<{ input: z.infer<S>; files: Record<string, ToolRequestFile> }> {
  const spec = tool.files;
  if (!spec) throw new AppError('INTERNAL', { message: `${tool.name} takes no files` });
  if (!req.isMultipart()) throw new AppError('VALIDATION_FAILED', { message: 'multipart/form-data expected' });
  const fields: Record<string, string> = {};
  const files: Record<string, ToolRequestFile> = {};
  for await (const part of req.parts({ limits: { fileSize: spec.maxBytes } })) {
    if (part.type === 'file') {
      if (!(part.fieldname in spec.fields) || files[part.fieldname]) throw new AppError('VALIDATION_FAILED', { message: `unexpected file field ${part.fieldname}` });
      const bytes = await part.toBuffer().catch((err: { code?: string }) => {
        if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('IMAGE_TOO_LARGE');
        throw err;
      });
      if (part.file.truncated) throw new AppError('IMAGE_TOO_LARGE');
      files[part.fieldname] = { filename: part.filename, bytes };
    } else {
      fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
    }
  }
  const parsed = spec.form.safeParse(fields);
  if (!parsed.success) throw new AppError('VALIDATION_FAILED', { details: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) });
  const input = tool.input.parse({ ...parsed.data, ...Object.fromEntries(Object.values(spec.fields).map((key) => [key, null])) }) as z.infer<S>;
  return { input, files };
}
