import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';

/** Identifiers of the ONNX super-resolution models the engine knows (see models.manifest.json). */
export type SrModelId = 'lsdir-compact-c3' | 'realesr-general-x4v3';

export interface ManifestEntry {
  file: string;
  sha256: string;
  bytes: number;
  scale: number;
  dtype: 'float32' | 'float16';
  input: string;
  output: string;
  licence: string;
  credit: string;
  source: string;
}

interface Manifest { models: Record<SrModelId, ManifestEntry> }

let manifest: Manifest | undefined;

/** The parsed manifest shipped in the package (`packages/engine/models.manifest.json`). */
export function loadManifest(): Manifest {
  manifest ??= JSON.parse(readFileSync(new URL('../../models.manifest.json', import.meta.url), 'utf8')) as Manifest;
  return manifest;
}

/** Models directory: explicit argument, else env MODELS_DIR, else ./data/models (relative to the cwd). */
export function resolveModelsDir(modelsDir?: string): string {
  return path.resolve(modelsDir ?? './data/models');
}

const verified = new Map<string, string>(); // path -> "size:mtime" already hashed OK

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Locates a model file and verifies its size and sha256 against the manifest (hashed once per process
 * per file version). Returns null when the file is absent (caller falls back); throws
 * `MODEL_CHECKSUM_MISMATCH: …` when a file is present but wrong — a corrupt or substituted weight file
 * must never run silently.
 */
export async function locateModel(id: SrModelId, modelsDir?: string): Promise<{ path: string; entry: ManifestEntry } | null> {
  const entry = loadManifest().models[id];
  if (!entry) throw new Error(`INVALID_OPTIONS: unknown super-resolution model '${id}'`);
  const file = path.join(resolveModelsDir(modelsDir), entry.file);
  let st;
  try {
    st = await stat(file);
  } catch {
    return null;
  }
  const key = `${st.size}:${st.mtimeMs}`;
  if (verified.get(file) !== key) {
    if (st.size !== entry.bytes) throw new Error(`MODEL_CHECKSUM_MISMATCH: ${entry.file} has ${st.size} bytes, manifest says ${entry.bytes}`);
    const digest = await sha256File(file);
    if (digest !== entry.sha256) throw new Error(`MODEL_CHECKSUM_MISMATCH: ${entry.file} sha256 ${digest} != ${entry.sha256}`);
    verified.set(file, key);
  }
  return { path: file, entry };
}
