/**
 * Each entry point loads only its own dependencies: a child process imports it with a resolution hook that
 * reports every npm package the module graph reaches (what `import` really loads, not what package.json says).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loaderArgs, runnableFile } from '../node-entry.js';

const ROOT = join(import.meta.dirname, '..', '..');
const HOOK = join(ROOT, 'testing', 'import-trace', 'register.mjs');

/** The npm packages that importing `entry` (a path under src/) loads. */
async function packagesLoadedBy(entry: string, opts: { outsideVitestFails?: boolean } = {}): Promise<Set<string>> {
  const { stderr } = await promisify(execFile)(
    process.execPath,
    ['--import', HOOK, ...loaderArgs(), '--input-type=module', '-e', `await import(${JSON.stringify(runnableFile(entry))});`],
    { cwd: ROOT },
  ).catch((e: { stderr: string }) => {
    // vitest refuses to run outside its runner, after it has been loaded: what was loaded is still reported.
    if (opts.outsideVitestFails && /vitest/i.test(e.stderr)) return { stderr: e.stderr };
    throw e;
  });
  return new Set([...stderr.matchAll(/^engram-import-trace (\S+)$/gm)].map((m) => m[1]!));
}

const SERVER_STACK = ['hono', '@hono/node-server', '@hono/zod-openapi', 'pino'];
const MCP_STACK = ['@modelcontextprotocol/sdk'];
const ENGINES = ['pg', '@electric-sql/pglite', '@electric-sql/pglite-pgvector', '@electric-sql/pglite-socket', 'ioredis'];
const TEST_KIT = ['vitest', 'fast-check'];

describe('entry points load only what they use', () => {
  it('`engram` loads the embedded default (SQLite) and none of the server, MCP, PostgreSQL or Redis stacks', async () => {
    const loaded = await packagesLoadedBy('src/index.ts');
    expect(loaded.has('better-sqlite3')).toBe(true); // the trace sees what is loaded: a positive control
    expect([...SERVER_STACK, ...MCP_STACK, ...ENGINES, ...TEST_KIT].filter((p) => loaded.has(p))).toEqual([]);
    // Nor the extraction tagger: its lexicon costs a few hundred ms, paid on the first extraction, not at start-up.
    expect(loaded.has('compromise')).toBe(false);
  }, 60_000);

  it('`engram/server` loads the HTTP stack but no PostgreSQL or Redis driver until one is configured', async () => {
    const loaded = await packagesLoadedBy('src/surfaces/http/index.ts');
    expect(loaded.has('hono')).toBe(true);
    expect(ENGINES.filter((p) => loaded.has(p))).toEqual([]);
  }, 60_000);

  it('`engram/testing` is the conformance suite under vitest, and loads no server stack', async () => {
    const loaded = await packagesLoadedBy('src/testing/index.ts', { outsideVitestFails: true });
    expect(loaded.has('vitest')).toBe(true);
    expect([...SERVER_STACK, ...MCP_STACK, ...ENGINES].filter((p) => loaded.has(p))).toEqual([]);
  }, 60_000);

  it('`engram/postgres` and `engram/redis` load their drivers only when a store or cache is opened', async () => {
    const pg = await packagesLoadedBy('src/adapters/storage/postgres/index.ts');
    const redis = await packagesLoadedBy('src/adapters/cache/index.ts');
    expect([...SERVER_STACK, ...MCP_STACK].filter((p) => pg.has(p) || redis.has(p))).toEqual([]);
    expect(ENGINES.filter((p) => pg.has(p) || redis.has(p))).toEqual([]);
  }, 60_000);
});
