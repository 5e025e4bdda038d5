/**
 * Batch CLI: `npm run retouch -- <files or folders> --out <dir> [--scale 2] [--lora 2]
 *   [--filter none|studio|ppoyong] [--strength 0.5] [--exclude lips,eyebrows,nose,hair] [--format jpg|png]
 *   [--quality 100] [--sr lsdir-compact-c3|realesr-general-x4v3] [--models-dir <dir>]`
 * Relative paths resolve against the directory npm was started from (INIT_CWD), not the workspace.
 */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import type { ExcludeOptions, RetouchOptions } from '../engine-types';
import { retouchImage } from '../retouch-pipeline';

const USAGE = 'usage: npm run retouch -- <files or folders> --out <dir> [--scale 2] [--lora 2] [--filter none|studio|ppoyong] [--strength 0.5] [--exclude lips,eyebrows,nose,hair] [--format jpg|png] [--quality 100] [--sr lsdir-compact-c3|realesr-general-x4v3] [--models-dir dir]';
const IMAGE_EXT = /\.(jpe?g|png|webp)$/i;

function parseExclude(list: string | undefined): ExcludeOptions {
  const ex: ExcludeOptions = { upperLip: false, lowerLip: false, leftEyebrow: false, rightEyebrow: false, nose: false, hair: false };
  for (const raw of (list ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const k = raw.toLowerCase();
    if (k === 'lips') { ex.upperLip = true; ex.lowerLip = true; } else if (k === 'eyebrows') { ex.leftEyebrow = true; ex.rightEyebrow = true; } else {
      const key = (Object.keys(ex) as Array<keyof ExcludeOptions>).find((x) => x.toLowerCase() === k.replace(/[-_]/g, ''));
      if (!key) throw new Error(`unknown --exclude entry '${raw}' (use lips, eyebrows, upperLip, lowerLip, leftEyebrow, rightEyebrow, nose, hair)`);
      ex[key] = true;
    }
  }
  return ex;
}

async function collectFiles(inputs: string[], base: string): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs) {
    const p = path.resolve(base, input);
    const st = await stat(p);
    if (st.isDirectory()) {
      for (const name of (await readdir(p)).sort()) if (IMAGE_EXT.test(name)) files.push(path.join(p, name));
    } else files.push(p);
  }
  return files;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      out: { type: 'string' }, scale: { type: 'string', default: '2' }, lora: { type: 'string', default: '2' },
      filter: { type: 'string', default: 'none' }, strength: { type: 'string', default: '0.5' }, exclude: { type: 'string' },
      format: { type: 'string', default: 'jpg' }, quality: { type: 'string', default: '100' }, sr: { type: 'string' },
      'models-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0 || !values.out) { console.error(USAGE); return values.help ? 0 : 2; }
  const base = process.env.INIT_CWD ?? process.cwd();
  const filter = values.filter ?? 'none';
  if (!['none', 'studio', 'ppoyong'].includes(filter)) throw new Error(`--filter must be none, studio or ppoyong`);
  const strength = Number(values.strength);
  const format = values.format === 'png' ? 'png' : 'jpg';
  // same mapping as the page (001 §5): none → index 0, strength 0.01, empty prompt
  const opts: RetouchOptions = {
    loraIndex: Number(values.lora),
    scaleFactor: Number(values.scale),
    filterIndex: filter === 'ppoyong' ? 1 : 0,
    filterStrength: filter === 'none' || strength === 0 ? 0.01 : strength,
    filterPrompt: filter === 'studio' ? 'studio filter' : filter === 'ppoyong' ? 'asle filter' : '',
    exclude: parseExclude(values.exclude),
    outputFormat: format,
    outputQuality: Number(values.quality),
    seed: 1,
    srModel: values.sr as RetouchOptions['srModel'],
  };
  const modelsDir = values['models-dir'] ? path.resolve(base, values['models-dir']) : process.env.MODELS_DIR ? path.resolve(base, process.env.MODELS_DIR) : path.resolve(base, 'data/models');
  const outDir = path.resolve(base, values.out);
  await mkdir(outDir, { recursive: true });
  const files = await collectFiles(positionals, base);
  if (files.length === 0) { console.error('no images found'); return 2; }

  const bar = new cliProgress.SingleBar({ format: '{bar} {percentage}% | {file} | {stage} | {done}/{count}', hideCursor: true }, cliProgress.Presets.shades_classic);
  bar.start(files.length * 100, 0, { file: '', stage: '', done: 0, count: files.length });
  const STAGE_SPAN: Record<string, [number, number]> = { decode: [0, 2], faces: [2, 10], resize: [10, 80], masks: [80, 83], retouch: [83, 95], encode: [95, 99], done: [100, 100] };
  let failures = 0;
  const report: string[] = [];
  for (const [k, file] of files.entries()) {
    const name = path.basename(file);
    try {
      const res = await retouchImage(await readFile(file), opts, {
        modelsDir,
        onProgress: (stage, f) => {
          const [a, b] = STAGE_SPAN[stage] ?? [0, 0];
          bar.update(k * 100 + a + (b - a) * f, { file: name, stage, done: k, count: files.length });
        },
      });
      const target = path.join(outDir, `${name.replace(/\.[^.]+$/, '')}.retouched.${res.format}`);
      await writeFile(target, res.bytes);
      report.push(`${name} → ${path.relative(base, target)} ${res.width}×${res.height} faces=${res.meta.faces} sr=${res.meta.srModel}${res.meta.fallback ? ' (fallback)' : ''}${res.meta.hairMask !== 'none' ? ` hair=${res.meta.hairMask}` : ''} ${res.meta.timingsMs.total} ms`);
    } catch (err) {
      failures++;
      report.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
    bar.update((k + 1) * 100, { file: name, stage: 'done', done: k + 1, count: files.length });
  }
  bar.stop();
  for (const line of report) console.log(line);
  return failures > 0 ? 1 : 0;
}

main().then((code) => { process.exitCode = code; }, (err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  console.error(USAGE);
  process.exitCode = 2;
});
