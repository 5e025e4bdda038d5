/**
 * `npm run eval -- <files or folders> [--out dir] [--levels 0,2,4] [--no-sr] [--sr-crop 256] [--models-dir dir]`
 * Evaluates retouch quality on any folder of portraits (issue 12) and prints, per photo and face: found,
 * fit verdict, exclusion MAD per region (PNG, excluded = look(plain)), and per level the cheek texture
 * kept, eye/brow edges kept, landmark shift, plus SR sharpness vs Lanczos ×2. Writes report.json and the
 * 100 % before|after crops and one sheet per face (every level, labelled) to --out (default ./eval-out). Relative paths resolve from INIT_CWD.
 * Each photo ends PASS or FAIL against EVAL_CRITERIA (evaluate.ts) with the reasons; exit 1 when any
 * photo fails or cannot be read, and SR_MODEL_MISSING when the SR model is not in the models folder.
 */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { EVAL_CRITERIA, evaluatePhoto, type PhotoFigures } from './evaluate';

const USAGE = 'usage: npm run eval -- <files or folders> [--out dir] [--levels 0,1,…,8] [--no-sr] [--sr-crop 256] [--models-dir dir]';
const IMAGE_EXT = /\.(jpe?g|png|webp)$/i;

/** Image files of a folder and its subfolders (sorted by path); dot-folders are skipped. */
async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(p)));
    else if (IMAGE_EXT.test(e.name)) out.push(p);
  }
  return out;
}

async function collect(inputs: string[], base: string): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs) {
    const p = path.resolve(base, input);
    if ((await stat(p)).isDirectory()) files.push(...(await walk(p)));
    else files.push(p);
  }
  return files;
}

const f2 = (v: number): string => (Number.isFinite(v) ? v.toFixed(2) : '–');

function print(r: PhotoFigures): void {
  console.log(`\n${path.basename(r.file)} ${r.width}×${r.height}: ${r.facesFound} face(s), ${r.ms} ms`);
  for (const f of r.faces) {
    console.log(`  face ${f.index} box ${f.box.width}×${f.box.height} at (${f.box.x},${f.box.y}): fit ${f.verdict} ${f.fitScore} (pass ${f.pass}, roll ${f.rollDeg}°) signals ${JSON.stringify(f.signals)}`);
    const ex = Object.entries(f.exclusionMad).map(([k, v]) => `${k} ${f2(v.mad)} (${v.pixels} px)`).join(', ');
    if (ex) console.log(`    exclusion MAD vs look(plain), levels: ${ex}`);
    console.log('    level retouch cheekHF eyeBrowEdges featureEdges landmarkShift% faceMAD lipΔE');
    for (const l of f.levels) console.log(`    ${String(l.level).padStart(5)} ${l.retouch.padStart(7)} ${f2(l.cheekHf).padStart(7)} ${f2(l.eyeBrowEdges).padStart(12)} ${f2(l.featureEdges).padStart(12)} ${f2(l.landmarkShiftPct).padStart(14)} ${f2(l.faceMad).padStart(7)} ${f2(l.lipDeltaE).padStart(6)}`);
  }
  if (r.sr) console.log(`  SR (${r.sr.model}, ${r.sr.modelFile}) on a ${r.sr.crop.width}² crop: mean gradient ×${f2(r.sr.gradientRatio)} of Lanczos ×2, grain on the flattest half ×${f2(r.sr.grainRatio)} of Lanczos's, ${r.sr.ms} ms`);
  console.log(`  ${r.verdict.pass ? 'PASS' : 'FAIL'}${r.verdict.failures.map((x) => `\n    - ${x}`).join('')}`);
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      out: { type: 'string', default: 'eval-out' }, levels: { type: 'string' }, 'no-sr': { type: 'boolean' },
      'sr-crop': { type: 'string' }, 'models-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0) { console.error(USAGE); return values.help ? 0 : 2; }
  const base = process.env.INIT_CWD ?? process.cwd();
  const outDir = path.resolve(base, values.out ?? 'eval-out');
  await mkdir(outDir, { recursive: true });
  const modelsDir = values['models-dir'] ? path.resolve(base, values['models-dir']) : process.env.MODELS_DIR ? path.resolve(base, process.env.MODELS_DIR) : path.resolve(base, 'data/models');
  const levels = values.levels ? values.levels.split(',').map((s) => Number(s.trim())) : undefined;
  const files = await collect(positionals, base);
  if (files.length === 0) { console.error('no images found'); return 2; }
  const results: PhotoFigures[] = [];
  let failures = 0;
  console.log(`criteria: ${JSON.stringify(EVAL_CRITERIA)}`);
  for (const file of files) {
    try {
      const r = await evaluatePhoto(file, await readFile(file), {
        levels, modelsDir, noSr: values['no-sr'], srCrop: values['sr-crop'] ? Number(values['sr-crop']) : undefined, outDir,
        writeFile: (name, bytes) => writeFile(path.join(outDir, name), bytes),
      });
      results.push(r);
      print(r);
      if (!r.verdict.pass) failures++;
    } catch (err) {
      failures++;
      console.error(`${path.basename(file)}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  await writeFile(path.join(outDir, 'report.json'), JSON.stringify({ date: new Date().toISOString(), results }, null, 2));
  console.log(`\n${results.filter((r) => r.verdict.pass).length} of ${files.length} photo(s) PASS`);
  for (const r of results) console.log(`  ${r.verdict.pass ? 'PASS' : 'FAIL'}  ${path.basename(r.file)}`);
  console.log(`wrote ${path.relative(base, path.join(outDir, 'report.json'))} and the crops (before | after, 100 %) beside it`);
  return failures > 0 ? 1 : 0;
}

main().then((code) => { process.exitCode = code; }, (err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  console.error(USAGE);
  process.exitCode = 2;
});
