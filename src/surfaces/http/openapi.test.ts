/**
 * The OpenAPI document: structurally valid OpenAPI 3.1 (checked here field by field: no validator package is
 * installed), lists every route the app serves, and documents what the server enforces (strict bodies).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { EVENT_TYPES } from '../../core/types.js';
import { createApp } from './app.js';
import { parseServerOptions } from './options.js';
import { startTestServer, type TestServer } from './server.test-support.js';
import { isUiPath } from './routes/ui.js';

type Obj = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const PUBLIC = new Set(['/healthz', '/readyz']);

let t: TestServer;
let doc: Obj;
let key: string;

beforeAll(async () => {
  t = await startTestServer({ config: { indexing: { background: false } } });
  key = await t.keyFor('docs');
  const res = await t.call('GET', '/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body as Obj;
});
afterAll(async () => t.close());

function operations(): { method: string; path: string; op: Obj }[] {
  const paths = doc.paths as Record<string, Obj>;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ method, path, op: op as Obj })),
  );
}

function resolve(node: unknown): Obj {
  let cur = node as Obj;
  while (typeof cur.$ref === 'string') {
    cur = (cur.$ref.slice(2).split('/') as string[]).reduce<unknown>((o, k) => (o as Obj)[k], doc) as Obj;
  }
  return cur;
}

function refsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

describe('OpenAPI document', () => {
  it('has the required top-level structure of OpenAPI 3.1 and a bearer security scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    const info = doc.info as Obj;
    expect(typeof info.title).toBe('string');
    expect(typeof info.version).toBe('string');
    expect(Object.keys(doc.paths as Obj).length).toBeGreaterThan(10);
    const schemes = (doc.components as Obj).securitySchemes as Record<string, Obj>;
    expect(schemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ apiKey: [] }]);
  });

  it('gives every operation a unique operationId, responses with descriptions and schemas, and declared path parameters', () => {
    const ids = new Set<string>();
    for (const { method, path, op } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(path.startsWith('/'), where).toBe(true);
      expect(typeof op.operationId, where).toBe('string');
      expect(ids.has(op.operationId as string), `duplicate operationId at ${where}`).toBe(false);
      ids.add(op.operationId as string);
      const responses = op.responses as Record<string, Obj>;
      expect(Object.keys(responses).length, where).toBeGreaterThan(0);
      for (const [status, r] of Object.entries(responses)) {
        expect(status, where).toMatch(/^[1-5]\d\d$|^default$/);
        expect(typeof resolve(r).description, `${where} ${status}`).toBe('string');
        for (const media of Object.values((resolve(r).content ?? {}) as Record<string, Obj>)) expect(media.schema, `${where} ${status}`).toBeTypeOf('object');
      }
      const params = ((op.parameters ?? []) as Obj[]).map(resolve);
      for (const p of params) {
        expect(['query', 'path', 'header', 'cookie'], where).toContain(p.in);
        expect(typeof p.name, where).toBe('string');
        expect(p.schema, where).toBeTypeOf('object');
      }
      for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
        expect(params.find((p) => p.in === 'path' && p.name === name), `${where} declares {${name}}`).toMatchObject({ required: true });
      }
      if (op.requestBody) {
        const content = resolve(op.requestBody).content as Record<string, Obj>;
        expect(Object.keys(content).length, where).toBeGreaterThan(0);
      }
      // Public routes opt out of the global bearer requirement; every other route inherits it.
      if (PUBLIC.has(path)) expect(op.security, where).toEqual([]);
      else expect(op.security, where).toBeUndefined();
    }
  });

  it('resolves every $ref to a component', () => {
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of new Set(refs)) {
      expect(ref, ref).toMatch(/^#\/components\//);
      expect(resolve({ $ref: ref }), ref).toBeTypeOf('object');
    }
  });

  it('lists every route the app serves, and nothing it does not', () => {
    const app = createApp({ memory: t.tm.memory, options: parseServerOptions({}), logger: pino({ level: 'silent' }), isDraining: () => false });
    const served = new Set(
      app.routes
        // /mcp is the MCP transport (GET, POST, DELETE), documented in docs/mcp.md rather than as REST; the
        // inspector's static files are not API.
        .filter((r) => r.method !== 'ALL' && r.path !== '/openapi.json' && r.path !== '/mcp' && !isUiPath(r.path))
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`),
    );
    const documented = new Set(operations().map((o) => `${o.method} ${o.path}`));
    expect([...documented].sort()).toEqual([...served].sort());
    for (const expected of ['post /v1/events', 'post /v1/events/batch', 'get /v1/events', 'post /v1/events/query', 'get /v1/events/{id}', 'post /v1/events/{id}/redact',
      'post /v1/facts', 'get /v1/facts', 'get /v1/facts/{id}', 'get /v1/facts/history', 'post /v1/search', 'post /v1/context', 'post /v1/forget', 'get /v1/export', 'post /v1/import',
      'get /healthz', 'get /readyz', 'post /admin/keys', 'get /admin/keys', 'delete /admin/keys/{id}']) {
      expect(documented, expected).toContain(expected);
    }
  });

  it("names every path of the document in docs/http.md's route table", () => {
    const markdown = readFileSync(new URL('../../../docs/http.md', import.meta.url), 'utf8');
    const table = markdown.slice(markdown.indexOf('## Routes'), markdown.indexOf('## Examples'));
    const WORKING = '/v1/sessions/{session_id}/working-memory';
    // The working-memory rows name the sub-routes after "and under it"; every other path is written out whole.
    const named = (path: string) => {
      const written = path.startsWith(`${WORKING}/`) ? path.slice(WORKING.length) : path;
      return new RegExp(`${written.replace(/[{}.]/g, '\\$&')}(?![\\w/{-])`).test(table);
    };
    expect(Object.keys(doc.paths as Obj).filter((path) => !named(path))).toEqual([]);
  });

  it('documents the schemas the server enforces: the library enums, and strict bodies refused with an extra field', async () => {
    const eventInput = resolve(((((doc.paths as Obj)['/v1/events'] as Obj).post as Obj).requestBody as Obj & { content: Record<string, Obj> }).content['application/json']!.schema);
    expect((eventInput.properties as Record<string, Obj>).type!.enum).toEqual([...EVENT_TYPES]);
    expect((eventInput.properties as Record<string, Obj>).args).toEqual({ $ref: '#/components/schemas/JsonValue' });
    const context = resolve((((doc.paths as Obj)['/v1/context'] as Obj).post as Obj & { requestBody: { content: Record<string, Obj> } }).requestBody.content['application/json']!.schema);
    expect(Object.keys(context.properties as Obj)).toEqual(expect.arrayContaining(['query', 'episodic_window', 'semantic_retrieval', 'merge_policy', 'guardrails']));

    let checked = 0;
    for (const { method, path, op } of operations()) {
      const schema = (op.requestBody as { content?: Record<string, { schema: unknown }> } | undefined)?.content?.['application/json']?.schema;
      if (!schema || resolve(schema).additionalProperties !== false || path.includes('{')) continue;
      const body = path.startsWith('/admin') ? { tenant: 'x', name: 'y', surplus: 1 } : { query: 'q', content: 'c', text: 't', surplus: 1 };
      const res = await t.call(method.toUpperCase(), path, { key: path.startsWith('/admin') ? t.adminKey : key, body });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(JSON.stringify(res.body), `${method} ${path}`).toContain('surplus');
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });
});
