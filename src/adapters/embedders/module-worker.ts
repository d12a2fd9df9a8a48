import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { EngramError } from '../../core/errors.js';

/**
 * Starts a worker thread running the module `name` that sits next to the calling module (`callerUrl` is its
 * `import.meta.url`), whether the caller runs compiled or from TypeScript sources.
 *
 * - Compiled (`dist/`): the sibling `name.js` runs directly as an ES module.
 * - Sources (tsx, vitest): Node 20 does not apply ESM loader hooks such as `--import tsx` inside worker
 *   threads, so `name.ts` cannot be loaded by path. A two-line CommonJS bootstrap installs tsx's in-thread
 *   require hook and requires the `.ts` file, which tsx compiles (ESM syntax and `import.meta.url` included).
 *   tsx is a dev dependency; it is only looked up in this case.
 */
export function spawnModuleWorker(callerUrl: string, name: string, opts: WorkerOptions = {}): Worker {
  const callerPath = fileURLToPath(callerUrl);
  const fromSource = extname(callerPath) === '.ts';
  const entry = join(dirname(callerPath), `${name}${fromSource ? '.ts' : '.js'}`);
  if (!existsSync(entry)) {
    throw new EngramError('ADAPTER', `worker module not found: ${entry}`, { details: { entry } });
  }
  if (!fromSource) return new Worker(entry, opts);

  let tsxHook: string;
  try {
    tsxHook = createRequire(callerUrl).resolve('tsx/cjs');
  } catch (cause) {
    throw new EngramError('ADAPTER', 'running worker threads from TypeScript sources needs the tsx package', { cause });
  }
  const bootstrap = `require(${JSON.stringify(tsxHook)});\nrequire(${JSON.stringify(entry)});\n`;
  return new Worker(bootstrap, { ...opts, eval: true });
}
