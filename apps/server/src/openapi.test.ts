import { describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../test/helpers/databases';
import { API_TYPES_FILE, buildOpenApiDocument, describeDifference, generateContractFiles, OPENAPI_DOCUMENT_FILE, readCommitted, renderOpenApiJson, sortKeysDeep } from './openapi';

/**
 * Decision 038: the committed API contract (docs/openapi.json and the page's types generated from it)
 * is what the routes generate now. A route whose path, parameters, body or answer changed without
 * `npm run openapi` fails here, and through the types `tsc -b` fails where the page relies on the old shape.
 * The document does not depend on the database, so one (PGlite) suffices.
 */

describe('the API contract', () => {
  it('the committed OpenAPI document and the page types are what the routes generate', async () => {
    const database = await TEST_DATABASES[0]!.open();
    try {
      const files = await generateContractFiles({ database });
      expect(files.map((f) => f.file)).toEqual([OPENAPI_DOCUMENT_FILE, API_TYPES_FILE]);
      for (const { file, text } of files) {
        const committed = readCommitted(file);
        if (committed !== text) expect.fail(describeDifference(file, committed, text));
      }
      // Every /api route is in it, and nothing else (the pages and the sandbox's checkout pages are not).
      const doc = JSON.parse(files[0]!.text) as { paths: Record<string, unknown> };
      expect(Object.keys(doc.paths).length).toBeGreaterThan(50);
      expect(Object.keys(doc.paths).every((p) => p.startsWith('/api/'))).toBe(true);
      expect(doc.paths).toHaveProperty(['/api/image/status/{jobId}', 'get']);
      expect(doc.paths).not.toHaveProperty('/api/admin/billing/sandbox');
    } finally {
      await database.dispose();
    }
  });

  it('is the same whatever order the keys come in (sorted), and generating twice gives the same text', async () => {
    expect(JSON.stringify(sortKeysDeep({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } }))).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
    const [one, two] = [await buildOpenApiDocument(), await buildOpenApiDocument()];
    expect(renderOpenApiJson(two)).toBe(renderOpenApiJson(one));
  });

  it('tells the developer what differs and what to run', () => {
    const message = describeDifference(OPENAPI_DOCUMENT_FILE, '{\n  "a": 1,\n  "b": 2\n}\n', '{\n  "a": 1,\n  "c": 2\n}\n');
    expect(message).toContain('docs/openapi.json is out of date');
    expect(message).toContain('npm run openapi');
    expect(message).toMatch(/-\s+3\s+"b": 2/);
    expect(message).toMatch(/\+\s+3\s+"c": 2/);
    expect(describeDifference(API_TYPES_FILE, null, 'x')).toMatch(/api-schema\.d\.ts is missing.*npm run openapi/);
  });
});
