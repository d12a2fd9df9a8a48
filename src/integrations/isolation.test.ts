/**
 * `import 'engram'` must not load any framework an integration is written for: they are optional peers, so an
 * app without them must still start. A child process imports the entry point with a module hook that records
 * every module URL resolved; the subpath entries are the positive control (they do load their framework).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'engram-isolation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FRAMEWORKS = [/\/node_modules\/ai\//, /\/node_modules\/@ai-sdk\//, /\/node_modules\/@langchain\//, /\/node_modules\/@openai\/agents/];

/** The module URLs a fresh Node process resolves while importing `entry` (a path under the repo). */
function modulesLoadedBy(entry: string, name: string): string[] {
  const log = join(dir, `${name}.log`);
  const hooks = join(dir, `${name}-hooks.mjs`);
  const register = join(dir, `${name}-register.mjs`);
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, r.url + '\\n');
  return r;
}
`,
  );
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  writeFileSync(log, '');
  const child = spawnSync(process.execPath, ['--import', 'tsx/esm', '--import', pathToFileURL(register).href, '-e', `await import(${JSON.stringify(pathToFileURL(join(root, entry)).href)})`], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(child.status, child.stderr).toBe(0);
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

const frameworksIn = (urls: string[]) => urls.filter((u) => FRAMEWORKS.some((re) => re.test(u)));

describe('optional framework peers', () => {
  it('importing engram loads none of them', () => {
    const urls = modulesLoadedBy('src/index.ts', 'engram');
    expect(urls.some((u) => u.endsWith('/src/memory.ts'))).toBe(true);
    expect(frameworksIn(urls)).toEqual([]);
  });

  it('each integration entry loads only its own framework', () => {
    const langgraph = frameworksIn(modulesLoadedBy('src/integrations/langgraph/index.ts', 'langgraph'));
    expect(langgraph.length).toBeGreaterThan(0);
    expect(langgraph.every((u) => u.includes('/@langchain/'))).toBe(true);
    const ai = frameworksIn(modulesLoadedBy('src/integrations/ai-sdk/index.ts', 'ai-sdk'));
    expect(ai.length).toBeGreaterThan(0);
    expect(ai.every((u) => /\/node_modules\/(ai|@ai-sdk)\//.test(u))).toBe(true);
    // The session only needs the SDK's types, so at run time it loads nothing of it.
    expect(frameworksIn(modulesLoadedBy('src/integrations/openai-agents/index.ts', 'openai-agents'))).toEqual([]);
  });
});
