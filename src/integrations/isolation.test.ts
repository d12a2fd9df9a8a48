/**
 * `import 'engram'` must not load any framework an integration is written for: they are optional peers, so an
 * app without them must still start. Uses the resolution trace of testing/e2e/import-boundaries.test.ts; the
 * integration entries are the positive control (each does load its own framework, and no other).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loaderArgs, runnableFile } from '../../testing/node-entry.js';

const ROOT = join(import.meta.dirname, '..', '..');
const HOOK = join(ROOT, 'testing', 'import-trace', 'register.mjs');

async function packagesLoadedBy(entry: string): Promise<Set<string>> {
  const { stderr } = await promisify(execFile)(
    process.execPath,
    ['--import', HOOK, ...loaderArgs(), '--input-type=module', '-e', `await import(${JSON.stringify(runnableFile(entry))});`],
    { cwd: ROOT },
  );
  return new Set([...stderr.matchAll(/^engram-import-trace (\S+)$/gm)].map((m) => m[1]!));
}

const LANGGRAPH = /^@langchain\//;
const AI_SDK = /^(ai|@ai-sdk\/.*)$/;
const AGENTS = /^(@openai\/agents.*|openai)$/;
const frameworks = (loaded: Set<string>, ...families: RegExp[]) => [...loaded].filter((p) => families.some((re) => re.test(p)));

describe('optional framework peers', () => {
  it('importing engram loads none of them', async () => {
    const loaded = await packagesLoadedBy('src/index.ts');
    expect(loaded.has('better-sqlite3')).toBe(true);
    expect(frameworks(loaded, LANGGRAPH, AI_SDK, AGENTS)).toEqual([]);
  }, 60_000);

  it('each integration entry loads its own framework and no other', async () => {
    const langgraph = await packagesLoadedBy('src/integrations/langgraph/index.ts');
    expect(langgraph.has('@langchain/langgraph-checkpoint')).toBe(true);
    expect(frameworks(langgraph, AI_SDK, AGENTS)).toEqual([]);
    const ai = await packagesLoadedBy('src/integrations/ai-sdk/index.ts');
    expect(ai.has('ai')).toBe(true);
    expect(frameworks(ai, LANGGRAPH, AGENTS)).toEqual([]);
    // The session needs only the SDK's types, so at run time it loads nothing of any framework.
    const agents = await packagesLoadedBy('src/integrations/openai-agents/index.ts');
    expect(frameworks(agents, LANGGRAPH, AI_SDK, AGENTS)).toEqual([]);
  }, 120_000);
});
