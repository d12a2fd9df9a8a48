/**
 * How a test starts one of the repository's TypeScript modules (the CLI, a child script) as a separate `node`
 * process. Under vitest, testing/global-setup.ts has transpiled src, testing and bench once for the run and named
 * the output in `ENGRAM_TEST_COMPILED`: the child then runs the module's `.js` there with plain `node`. Without it
 * (a test file run outside vitest's global setup, or a bench script), the child compiles the sources itself under
 * `--import tsx`, as before. Either way the child runs the sources as they are now, never a stale `dist/`.
 */
import { isAbsolute, join, relative } from 'node:path';
import { EngramError } from '../src/core/errors.js';

/** The environment variable naming the run's transpiled tree (set by testing/global-setup.ts). */
export const COMPILED_ENV = 'ENGRAM_TEST_COMPILED';
/** The repository root. */
export const ROOT = join(import.meta.dirname, '..');
/** The CLI's entry point, relative to the repository root. */
export const CLI_ENTRY = 'src/surfaces/cli/main.ts';

/** The run's transpiled tree, if there is one. */
export function compiledRoot(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[COMPILED_ENV] || undefined;
}

/** The file `node` runs for the module at `entry` (a `.ts` path, relative to the root or absolute under it). */
export function runnableFile(entry: string, env: NodeJS.ProcessEnv = process.env): string {
  const rel = isAbsolute(entry) ? relative(ROOT, entry) : entry;
  if (rel.startsWith('..') || !rel.endsWith('.ts')) {
    throw new EngramError('VALIDATION', `not a TypeScript module of the repository: ${entry}`, { details: { entry } });
  }
  const compiled = compiledRoot(env);
  return compiled ? join(compiled, rel.replace(/\.ts$/, '.js')) : join(ROOT, rel);
}

/** node's options that let it load `runnableFile()`: none for the transpiled tree, tsx's hook for sources. */
export function loaderArgs(env: NodeJS.ProcessEnv = process.env): string[] {
  return compiledRoot(env) ? [] : ['--import', 'tsx'];
}

/** node's arguments that run the module at `entry`: `[...loaderArgs(), runnableFile(entry)]`. */
export function nodeArgs(entry: string, env: NodeJS.ProcessEnv = process.env): string[] {
  return [...loaderArgs(env), runnableFile(entry, env)];
}

/** node's arguments that run the `engram` CLI, before the CLI's own arguments. */
export function cliArgs(env: NodeJS.ProcessEnv = process.env): string[] {
  return nodeArgs(CLI_ENTRY, env);
}
