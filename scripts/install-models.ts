/**
 * Installs the super-resolution model files listed in packages/engine/models.manifest.json into
 * MODELS_DIR (default ./data/models), once: each file is fetched from MODELS_SOURCE — a folder or an
 * http(s) base URL; default ../shared/models beside the checkout when it exists — and kept only when
 * its SHA-256 matches the manifest. Files already present and valid are left alone. Never fails the
 * start: without a source the engine falls back to the ESRGAN weights of @upscalerjs/esrgan-slim.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'packages/engine/models.manifest.json'), 'utf8')) as {
  models: Record<string, { file: string; sha256: string; licence: string; credit: string }>;
};
const modelsDir = path.resolve(root, process.env.MODELS_DIR ?? 'data/models');
const defaultSource = path.resolve(root, '../shared/models');
const source = process.env.MODELS_SOURCE ?? (fs.existsSync(defaultSource) ? defaultSource : undefined);

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function fetchBytes(file: string): Promise<Buffer | undefined> {
  if (!source) return undefined;
  if (/^https?:\/\//.test(source)) {
    const res = await fetch(`${source.replace(/\/$/, '')}/${file}`);
    return res.ok ? Buffer.from(await res.arrayBuffer()) : undefined;
  }
  const p = path.join(source, file);
  return fs.existsSync(p) ? fs.readFileSync(p) : undefined;
}

fs.mkdirSync(modelsDir, { recursive: true });
let installed = 0;
for (const [id, m] of Object.entries(manifest.models)) {
  const dest = path.join(modelsDir, m.file);
  if (fs.existsSync(dest) && sha256(fs.readFileSync(dest)) === m.sha256) {
    installed++;
    continue;
  }
  const bytes = await fetchBytes(m.file).catch(() => undefined);
  if (!bytes) continue;
  if (sha256(bytes) !== m.sha256) {
    console.warn(`[models] ${m.file}: SHA-256 mismatch from ${source}; not installed`);
    continue;
  }
  fs.writeFileSync(`${dest}.part`, bytes);
  fs.renameSync(`${dest}.part`, dest);
  installed++;
  console.log(`[models] installed ${id} (${m.file}, ${m.licence}; ${m.credit})`);
}
const total = Object.keys(manifest.models).length;
console.log(
  installed === total
    ? `[models] ${installed}/${total} super-resolution models ready in ${modelsDir}`
    : `[models] ${installed}/${total} models in ${modelsDir}; set MODELS_SOURCE to install the rest (the engine falls back to esrgan-slim meanwhile)`,
);
