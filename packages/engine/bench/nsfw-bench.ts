/**
 * `npm run bench:nsfw` (packages/engine): the time upload screening adds (issue 13: ≤ 300 ms for a
 * 1024² photo). Loads the classifier once, then classifies a 1024² crop of each fixture 5 times and
 * prints the median and best per photo (ms) and the peak RSS.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { classifyNsfw, warmUpNsfw } from '../src/nsfw/nsfw-classifier';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = path.resolve(process.env.FIXTURES_DIR ?? path.join(repoRoot, '../shared/fixtures/portraits'));
let t = performance.now();
await warmUpNsfw();
console.log(`model load: ${Math.round(performance.now() - t)} ms`);
for (const f of (await readdir(fixtures)).filter((x) => /\.(jpe?g|png)$/i.test(x)).sort()) {
  const img = await sharp(path.join(fixtures, f)).resize(1024, 1024, { fit: 'cover' }).jpeg({ quality: 95 }).toBuffer();
  const times: number[] = [];
  let porn = 0;
  for (let i = 0; i < 5; i++) {
    t = performance.now();
    const s = await classifyNsfw(img);
    times.push(performance.now() - t);
    porn = s.porn + s.hentai;
  }
  times.sort((a, b) => a - b);
  console.log(`${f.padEnd(42)} 1024²  median ${Math.round(times[2]!)} ms  best ${Math.round(times[0]!)} ms  P(porn+hentai) ${porn.toFixed(3)}`);
}
console.log(`peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
