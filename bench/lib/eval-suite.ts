/**
 * What the hand-written evaluation suites (bench/conversations, bench/relations) share: loading a folder of
 * fixture files against a schema, a fresh embedded memory per conversation with a clock the runner sets, the
 * share type of their figures and their command-line options. Only the public library API is used.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import { openMemory, type EngramConfigInput, type Memory } from '../../src/index.js';

export interface Share {
  ok: number;
  of: number;
  share: number;
}

/** `ok` out of `of`, the share rounded to three places; `empty` when there is nothing to count. */
export function share(ok: number, of: number, empty = 0): Share {
  return { ok, of, share: of === 0 ? empty : Math.round((ok / of) * 1000) / 1000 };
}

export const formatShare = (s: Share): string => `${s.share.toFixed(3)} (${s.ok}/${s.of})`;

/** Every `.json` file of a folder, in name order, parsed with the schema; a bad file is named with its issues. */
export function loadFixtureDir<T>(dir: string, schema: z.ZodType<T>): T[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const parsed = schema.safeParse(JSON.parse(readFileSync(join(dir, f), 'utf8')));
      if (!parsed.success) throw new Error(`${f}: ${z.prettifyError(parsed.error)}`);
      return parsed.data;
    });
}

/** A clock the runner moves by hand (to each record's time while writing, past the last one while asking). */
export interface SetClock {
  now(): number;
  at: number;
}

export function setClock(): SetClock {
  const clock: SetClock = { at: 0, now: () => clock.at };
  return clock;
}

/**
 * Opens a fresh embedded memory (a SQLite file in a new temp folder, the default offline embedder unless one is
 * given), runs `use` and removes everything afterwards.
 */
export async function withFreshMemory<T>(opts: { embedder?: EngramConfigInput['embedder'] | undefined; clock: SetClock }, use: (memory: Memory) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-eval-'));
  let memory: Memory | undefined;
  try {
    memory = await openMemory(
      { storage: { url: `sqlite:${join(dir, 'engram.db')}` }, retention: { sweepIntervalMinutes: 0 }, ...(opts.embedder ? { embedder: opts.embedder } : {}) },
      { clock: opts.clock },
    );
    return await use(memory);
  } finally {
    await memory?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface SuiteOptions {
  fixtures?: string;
  only?: string;
  verbose: boolean;
  json: boolean;
}

/** The options every evaluation suite takes. */
export function suiteCommand(name: string, description: string, verbose: string): Command {
  return new Command()
    .name(name)
    .description(description)
    .option('--fixtures <dir>', 'a folder of fixture files (default: the repository set)')
    .option('--only <text>', 'run only the conversations whose id contains this text')
    .option('--verbose', verbose, false)
    .option('--json', 'print the report as JSON', false);
}
