import { describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../test/helpers/databases';
import { API_TYPES_FILE, describeDifference, generateContractFiles, OPENAPI_DOCUMENT_FILE, readCommitted, renderOpenApiJson, sortKeysDeep } from './openapi';

/**
 * Decision 038: the committed API contract (docs/openapi.json and the page's types generated from it)
 * is what the routes generate now. A route whose path, parameters, body or answer changed without
 * `npm run openapi` fails here, and through the types `tsc -b` fails where the page relies on the old shape.
 * The document does not depend on the database, so one (PGlite) suffices.
 */

/**
 * The operations whose success answer the document does not describe as JSON. Either they answer no
 * JSON (files, redirects, event streams) or their route does not declare a response schema yet, so the
 * page reads them through `undeclaredAnswer` (decision 038). The list only shrinks: a new route declares
 * its response schema.
 */
const WITHOUT_JSON_ANSWER = {
  /** Bytes, redirects and event streams: nothing to declare as JSON. */
  notJson: [
    'GET /api/auth/kakao',
    'GET /api/auth/kakao/callback',
    'GET /api/auth/naver',
    'GET /api/auth/naver/callback',
    'GET /api/image/download',
    'GET /api/jobs/events',
    'GET /api/notices/files/{id}',
    'GET /api/storage/file',
    'PUT /api/storage/upload',
    'GET /v1/jobs/{id}/result',
    'GET /api/batches/{id}/zip',
    // A redirect (302) to the payment provider's receipt.
    'GET /api/billing/receipts/{paymentId}/provider',
    // An event stream (text/event-stream) on success; errors before the stream are JSON.
    'POST /api/ai/chat',
  ],
  /** JSON answers whose routes do not declare a response schema yet: none left (issue 23 point 6). */
  undeclared: [] as string[],
};

/** `METHOD /path` of every operation of `doc` whose 2xx answers carry no application/json schema. */
function operationsWithoutJsonAnswer(doc: { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>> }): string[] {
  const out: string[] = [];
  for (const [p, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const json = Object.entries(op.responses ?? {}).some(([status, r]) => status.startsWith('2') && r.content?.['application/json'] !== undefined);
      if (!json) out.push(`${method.toUpperCase()} ${p}`);
    }
  }
  return out.sort();
}

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
      // Every /api and /v1 route is in it, and nothing else (the pages and the sandbox's checkout pages are not).
      const doc = JSON.parse(files[0]!.text) as { paths: Record<string, unknown> };
      expect(Object.keys(doc.paths).length).toBeGreaterThan(50);
      expect(Object.keys(doc.paths).every((p) => p.startsWith('/api/') || p.startsWith('/v1/'))).toBe(true);
      expect(doc.paths).toHaveProperty(['/v1/jobs', 'post']);
      expect(doc.paths).toHaveProperty(['/api/image/status/{jobId}', 'get']);
      expect(doc.paths).not.toHaveProperty('/api/admin/billing/sandbox');
    } finally {
      await database.dispose();
    }
  });

  it('every JSON route declares its answer (the list of those that do not only shrinks)', () => {
    const doc = JSON.parse(readCommitted(OPENAPI_DOCUMENT_FILE) ?? '{"paths":{}}');
    const expected = [...WITHOUT_JSON_ANSWER.notJson, ...WITHOUT_JSON_ANSWER.undeclared].sort();
    const actual = operationsWithoutJsonAnswer(doc);
    const added = actual.filter((o) => !expected.includes(o));
    if (added.length) expect.fail(`These routes answer without a declared response schema: ${added.join(', ')}. Declare \`response: { 200: Schema }\` on the route (a zod schema from @dewy/contracts, decision 038) and run \`npm run openapi\`.`);
    // A route that now declares its answer leaves the list (and its page call drops undeclaredAnswer).
    expect(expected.filter((o) => !actual.includes(o)), 'declared now: remove from WITHOUT_JSON_ANSWER').toEqual([]);
  });

  // Generating is deterministic: the first test compares what this process generates (on a template copy)
  // with what `npm run openapi` generated in another process (on a fresh PGlite). Keys are sorted:
  it('sorts every object\'s keys and keeps arrays in order', () => {
    expect(JSON.stringify(sortKeysDeep({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } }))).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
    expect(renderOpenApiJson({ paths: {}, openapi: '3.0.3' })).toBe('{\n  "openapi": "3.0.3",\n  "paths": {}\n}\n');
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
