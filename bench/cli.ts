/**
 * What the bench entry points share: option parsing, printing, and reading third-party data from a path given
 * on the command line (datasets are never copied into the repository).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { EngramError, isEngramError } from '../src/index.js';

/** Positive whole numbers, comma-separated (`--sizes 10000,100000`); anything else names the option. */
export function parseList(name: string, v: string): number[] {
  const xs = v.split(',').map((s) => Number(s.trim()));
  if (xs.length === 0 || xs.some((x) => !Number.isInteger(x) || x <= 0)) {
    throw new EngramError('VALIDATION', `--${name} takes positive whole numbers, comma-separated`, { issues: [{ path: name, message: 'positive integers' }] });
  }
  return xs;
}

/** A data file the bench needs: its absolute path, or a VALIDATION error saying which option and how to get it. */
export function requireData(option: string, path: string | undefined, what: string): string {
  if (path === undefined || path === '') {
    throw new EngramError('VALIDATION', `--${option} is required: the path to ${what}`, { issues: [{ path: option, message: 'required' }] });
  }
  const abs = resolve(path);
  if (!existsSync(abs)) {
    throw new EngramError('VALIDATION', `--${option}: no file at ${abs} (${what})`, { issues: [{ path: option, message: 'file not found' }] });
  }
  return abs;
}

export function print(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}

/** Runs a bench's main: prints an error the way a user can act on and exits non-zero, never hangs. */
export function run(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      const err = isEngramError(e) ? e : new EngramError('ADAPTER', e instanceof Error ? e.message : String(e));
      if (process.argv.includes('--json')) process.stderr.write(`${JSON.stringify({ error: err.toJSON() })}\n`);
      else process.stderr.write(`bench: ${err.code}: ${err.message}\n`);
      process.exit(err.code === 'VALIDATION' ? 2 : 1);
    },
  );
}
