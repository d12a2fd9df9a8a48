import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliArgs, COMPILED_ENV, nodeArgs, ROOT, runnableFile } from './node-entry.js';

const compiled = { [COMPILED_ENV]: '/tmp/engram-compiled/tree' };

describe('node-entry', () => {
  it('runs a module from the transpiled tree with plain node when the run has one', () => {
    expect(nodeArgs('bench/scenario/main.ts', compiled)).toEqual(['/tmp/engram-compiled/tree/bench/scenario/main.js']);
    expect(runnableFile(join(ROOT, 'testing/redis-child.ts'), compiled)).toBe('/tmp/engram-compiled/tree/testing/redis-child.js');
  });

  it('falls back to the sources under tsx without one', () => {
    expect(cliArgs({})).toEqual(['--import', 'tsx', join(ROOT, 'src/surfaces/cli/main.ts')]);
    expect(nodeArgs('testing/redis-child.ts', { [COMPILED_ENV]: '' })).toEqual(['--import', 'tsx', join(ROOT, 'testing/redis-child.ts')]);
  });

  it('refuses what is not a TypeScript module of the repository', () => {
    expect(() => runnableFile('/etc/passwd.ts', compiled)).toThrow(/not a TypeScript module/);
    expect(() => runnableFile('src/surfaces/cli/main.js', compiled)).toThrow(/not a TypeScript module/);
  });

  it('the CLI answers from the run’s transpiled tree', () => {
    // vitest's global setup made the tree for this run; the CLI started from it prints its help.
    expect(process.env[COMPILED_ENV]).toBeTruthy();
    expect(cliArgs()[0]).toMatch(/\.js$/);
    const help = execFileSync(process.execPath, [...cliArgs(), '--help'], { cwd: ROOT, encoding: 'utf8' });
    expect(help).toContain('Usage: engram');
  }, 60_000);
});
