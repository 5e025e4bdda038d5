import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './config';
import { generateContractFiles, readCommitted } from './openapi';

/**
 * `npm run openapi` (decision 038): regenerates the API contract from the routes — the OpenAPI document
 * (docs/openapi.json) and the page's types (apps/web/src/lib/api-schema.d.ts) — and writes the files
 * that changed. Builds the app in-process on a throwaway PGlite: no port, no network, no data folder.
 * Review the diff before committing: a changed field or path there is a changed API.
 */
async function main() {
  const files = await generateContractFiles();
  for (const { file, text } of files) {
    if (readCommitted(file) === text) {
      console.log(`  unchanged  ${file}`);
      continue;
    }
    fs.writeFileSync(path.join(REPO_ROOT, file), text);
    console.log(`  written    ${file}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
