/**
 * Upscales one photo through Dewy's public API with the client in dewy.ts:
 *
 *   DEWY_API_KEY=dewy_sk_… [DEWY_URL=http://localhost:5000] npx tsx clients/typescript/example.ts photo.jpg [scale]
 *
 * Uploads the photo, starts an `upscale` job (scale factor from the second argument, else the largest of
 * 2, 1.5 and 1 that the server allows for the photo's size), waits for it, writes the result next to the
 * photo as `<name>-upscaled.jpg` and prints the credits left. DEWY_URL defaults to the server's default
 * address (PORT 5000). Exit code 1 when the job failed or the API refused a call.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DewyApiError, DewyClient } from './dewy';

/** The server refuses factor ≠ 1 when the scaled width + height reaches 4000 px. */
function pickScale(width: number, height: number): number {
  return [2, 1.5].find((f) => Math.round(width * f) + Math.round(height * f) < 4000) ?? 1;
}

async function main(): Promise<number> {
  const [photo, scaleArg] = process.argv.slice(2);
  const apiKey = process.env.DEWY_API_KEY;
  if (!photo || !apiKey) {
    console.error('usage: DEWY_API_KEY=dewy_sk_… [DEWY_URL=http://localhost:5000] npx tsx clients/typescript/example.ts photo.jpg [scale]');
    return 2;
  }
  const dewy = new DewyClient({ apiKey, baseUrl: process.env.DEWY_URL ?? 'http://localhost:5000', retryOnRateLimit: true });

  const upload = await dewy.upload(await fs.readFile(photo), path.basename(photo));
  console.log(`uploaded ${photo} (${upload.width}×${upload.height})`);

  const scale = scaleArg ? Number(scaleArg) : pickScale(upload.width, upload.height);
  // One idempotency key per intended job: if this request is retried, the job is created (and charged) once.
  const job = await dewy.createJob('upscale', { image: upload.imageUrl, scale_factor: scale }, { idempotencyKey: randomUUID() });
  console.log(`job ${job.id} started: upscale ×${scale}, ${job.cost} credits`);

  const done = await dewy.waitForJob(job.id, { intervalMs: 2000 });
  if (done.status !== 'completed') {
    console.error(`job ${done.id} ${done.status}: ${done.error ?? 'unknown error'} (credits refunded)`);
    console.log(`credits remaining: ${dewy.lastCreditsRemaining ?? 'unknown'}`);
    return 1;
  }
  const bytes = await dewy.downloadResult(done.id);
  const isPng = bytes[0] === 0x89 && bytes[1] === 0x50; // the job's output_format (default jpg)
  const out = path.join(path.dirname(photo), `${path.parse(photo).name}-upscaled.${isPng ? 'png' : 'jpg'}`);
  await fs.writeFile(out, bytes);
  console.log(`wrote ${out} (${bytes.byteLength} bytes)`);
  console.log(`credits remaining: ${dewy.lastCreditsRemaining ?? 'unknown'}`);
  return 0;
}

// No top-level await: the file runs as CommonJS too, e.g. copied into a project without "type": "module".
main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof DewyApiError) console.error(`Dewy API error ${err.status} ${err.code}: ${err.message}`);
    else console.error(err);
    process.exitCode = 1;
  },
);
