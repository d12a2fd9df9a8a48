/**
 * The OpenAPI contract (`npm run openapi:check`, part of `npm test`): the committed client types are what the
 * server serves, every request body shown in README.md and docs/*.md type-checks against them (excess
 * properties included), and `redocly lint` finds no error in the document.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { docFiles, extractBodies, generateTypes, lintDocument, SCHEMA_PATH, servedOpenApiDocument, typeCheckBodies } from '../../../testing/openapi.js';

type Doc = Awaited<ReturnType<typeof servedOpenApiDocument>>;
let doc: Doc;
let types: string;

beforeAll(async () => {
  doc = await servedOpenApiDocument();
  types = await generateTypes(doc);
});

describe('OpenAPI contract', () => {
  it('src/client/schema.ts is generated from the served document (else: npm run openapi:generate)', () => {
    expect(readFileSync(SCHEMA_PATH, 'utf8') === types, 'src/client/schema.ts is stale: run npm run openapi:generate').toBe(true);
  });

  it('finds the request bodies of README.md and docs/*.md, and each one type-checks against its operation', () => {
    const bodies = docFiles().flatMap((f) => extractBodies(f));
    expect(bodies.length).toBeGreaterThanOrEqual(10);
    expect(bodies.map((b) => b.path)).toEqual(expect.arrayContaining(['/v1/events', '/v1/context', '/v1/outcomes']));
    expect(typeCheckBodies(doc, types, bodies)).toEqual([]);
  });

  it('rejects a body the document does not allow: the check is not vacuous', () => {
    const readme = '```bash\ncurl -s -X POST localhost:8080/v1/events -d \'{"taskId":"t1","content":"x"}\'\n```\n```http\nPOST /v1/outcomes\n{"retrieval_id": "ret_1", "outcome": "MAYBE"}\n```\n';
    const problems = typeCheckBodies(doc, types, extractBodies('README.md', readme));
    expect(problems.map((p) => p.where)).toEqual([expect.stringContaining('POST /v1/events'), expect.stringContaining('POST /v1/outcomes')]);
    expect(problems[0]!.message).toContain('taskId');
  });

  it('lints with 0 errors', async () => {
    const report = await lintDocument(doc);
    expect(report.messages).toEqual([]);
    expect(report.errors).toBe(0);
  }, 60_000);
});
