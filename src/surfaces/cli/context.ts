/** What every CLI command shares: global options, opening memory, printing, and error exits. */
import type { Command } from 'commander';
import { EngramError, isEngramError } from '../../core/errors.js';
import type { Memory } from '../../memory.js';
import { openMemory } from '../../open.js';

export interface GlobalOptions {
  db: string;
  store?: string;
  cache?: string;
  json: boolean;
  tenant?: string;
}

/** The storage URL a command opens: `--store URL`, else `--db` (a path means SQLite). */
export function storeUrl(g: GlobalOptions): string {
  const target = g.store ?? g.db;
  return /^[a-z][a-z0-9+.-]+:/i.test(target) ? target : `sqlite:${target}`;
}

export function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals<GlobalOptions>();
}

/**
 * What a command needs of the store, which decides what opening it costs:
 * - `rows`: reads or writes rows only. No embedding or learning runs in this process, so the model never loads;
 *   writes are durable when the command exits and are embedded by the next process that opens the store.
 * - `read`: searches. Whatever earlier commands wrote is embedded and segmented first, so vector search covers it.
 * - `ingest`: writes many records, then embeds and segments them before exiting (import, demo).
 */
export type StoreNeeds = 'rows' | 'read' | 'ingest';

/** Opens memory for one command and always closes it. */
export async function withMemory<T>(cmd: Command, needs: StoreNeeds, fn: (m: Memory, g: GlobalOptions) => Promise<T>): Promise<T> {
  const g = globals(cmd);
  const url = storeUrl(g);
  const background = needs !== 'rows';
  const memory = await openMemory({
    storage: { url },
    ...(g.cache ? { cache: { url: g.cache } } : {}),
    ...(g.tenant ? { defaultTenant: g.tenant } : {}),
    retention: { sweepIntervalMinutes: 0 },
    indexing: { background },
    learn: { engine: { background } },
  });
  try {
    if (needs === 'read') await memory.flush();
    const out = await fn(memory, g);
    if (needs === 'ingest') await memory.flush();
    return out;
  } finally {
    await memory.close();
  }
}

export function print(g: GlobalOptions, value: unknown, human: () => string): void {
  process.stdout.write(g.json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}

export function parseIntOption(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) {
      throw new EngramError('VALIDATION', `--${name} takes a positive whole number`, { issues: [{ path: name, message: 'positive integer' }] });
    }
    return n;
  };
}

/** Prints an error the way a user can act on, and sets the exit code: 2 for bad input, 1 otherwise. */
export function reportError(e: unknown, json: boolean): void {
  const err = isEngramError(e) ? e : new EngramError('ADAPTER', e instanceof Error ? e.message : String(e));
  if (json) {
    process.stderr.write(`${JSON.stringify({ error: err.toJSON() })}\n`);
  } else {
    process.stderr.write(`engram: ${err.code}: ${err.message}\n`);
    for (const i of err.issues.slice(1, 10)) process.stderr.write(`  ${i.path}: ${i.message}\n`);
  }
  process.exitCode = ['VALIDATION', 'CONFIG', 'NOT_FOUND', 'CONFLICT', 'LIMIT'].includes(err.code) ? 2 : 1;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function parseJsonOption(name: string) {
  return (v: string): unknown => {
    try {
      return JSON.parse(v) as unknown;
    } catch {
      throw new EngramError('VALIDATION', `--${name} is not valid JSON`, { issues: [{ path: name, message: 'invalid JSON' }] });
    }
  };
}

export function collect(v: string, prev: string[] = []): string[] {
  return [...prev, v];
}
