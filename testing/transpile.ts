/**
 * Transpiles the repository's TypeScript folders (src, testing, bench) into plain ES modules once per test run, so
 * the tests that start the CLI or a child script as a separate process run it with plain `node` instead of
 * compiling every module again in each process under `--import tsx`. The output is made from the sources as they
 * are when the run starts (never from a possibly stale `dist/`), by the same compiler tsx uses (esbuild: a
 * per-file transform, no bundling), keeping the folder layout and the `.js` import specifiers, so a module finds
 * what sits next to it (worker modules, fixtures) exactly as it does in the repository.
 *
 * What a module resolves from its own location works as in the repository: the output root holds links to the
 * repository's `node_modules` and `dist-ui`, a `package.json` that makes its `.js` files ES modules, and a copy of
 * every non-TypeScript file of the transpiled folders (fixtures, `.mjs` hooks).
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** The folders whose modules tests start as separate processes. */
export const TRANSPILED_DIRS = ['src', 'testing', 'bench'] as const;
/** What the output root links back to in the repository (packages, and the built UI that `serve` hands out). */
const LINKED = ['node_modules', 'dist-ui'] as const;

/** Files are test files, not modules a child process runs. */
const isTestFile = (name: string) => /\.(test|data-test)\.ts$/.test(name);

interface Listing {
  sources: string[];
  assets: string[];
}

function list(root: string, dir: string, into: Listing): Listing {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') list(root, rel, into);
    } else if (entry.isFile()) {
      if (entry.name.endsWith('.d.ts')) into.assets.push(rel);
      else if (entry.name.endsWith('.ts')) {
        if (!isTestFile(entry.name)) into.sources.push(rel);
      } else into.assets.push(rel);
    }
  }
  return into;
}

/**
 * Writes `out/<dir>/…/name.js` for every non-test `.ts` file of `dirs` under `root`, copies their other files,
 * and links `out/node_modules` and `out/dist-ui` to the repository's. `out` is emptied first. Returns how many
 * modules were written.
 */
export async function transpileTree(root: string, out: string, dirs: readonly string[] = TRANSPILED_DIRS): Promise<number> {
  const { build } = await import('esbuild');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const files = dirs.reduce<Listing>((acc, d) => list(root, d, acc), { sources: [], assets: [] });
  await build({
    absWorkingDir: root,
    entryPoints: files.sources,
    outdir: out,
    outbase: root,
    bundle: false,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    logLevel: 'error',
    tsconfigRaw: { compilerOptions: { target: 'ES2022', useDefineForClassFields: true } },
  });
  for (const rel of files.assets) {
    mkdirSync(dirname(join(out, rel)), { recursive: true });
    copyFileSync(join(root, rel), join(out, rel));
  }
  for (const name of LINKED) symlinkSync(relative(out, join(root, name)) || '.', join(out, name), 'dir');
  writeFileSync(join(out, 'package.json'), `${JSON.stringify({ private: true, type: 'module' })}\n`);
  return files.sources.length;
}
