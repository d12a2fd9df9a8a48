/**
 * Test support (not a test): a real Engram memory on a SQLite file in a temp dir, opened through `openMemory`
 * as an application would (USE-lite on the main thread, heuristic reranker, no LLM), reopenable on the same
 * file to prove that what a framework wrote survives a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngramConfigInput } from '../core/config.js';
import type { Memory } from '../memory.js';
import { openMemory } from '../open.js';
import type { Clock } from '../ports/clock.js';

export interface TempMemory {
  dir: string;
  dbPath: string;
  config: EngramConfigInput;
  open(opts?: { clock?: Clock }): Promise<Memory>;
  /** Closes every memory opened here and removes the directory. */
  cleanup(): Promise<void>;
}

export function tempMemoryConfig(dbPath: string, extra: EngramConfigInput = {}): EngramConfigInput {
  return {
    storage: { url: `sqlite:${dbPath}` },
    embedder: { provider: 'use-lite', workers: 0, batchSize: 32 },
    retention: { sweepIntervalMinutes: 0 },
    ...extra,
  };
}

export function tempMemory(prefix: string, extra: EngramConfigInput = {}): TempMemory {
  const dir = mkdtempSync(join(tmpdir(), `engram-${prefix}-`));
  const dbPath = join(dir, 'engram.db');
  const config = tempMemoryConfig(dbPath, extra);
  const opened: Memory[] = [];
  let closed = new WeakSet<Memory>();
  return {
    dir,
    dbPath,
    config,
    async open(opts = {}) {
      const memory = await openMemory(config, opts.clock ? { clock: opts.clock } : {});
      const close = memory.close.bind(memory);
      memory.close = async () => {
        if (closed.has(memory)) return;
        closed.add(memory);
        await close();
      };
      opened.push(memory);
      return memory;
    },
    async cleanup() {
      for (const m of opened) await m.close();
      closed = new WeakSet();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A clock tests move by hand. */
export function manualClock(start = Date.parse('2026-01-05T10:00:00Z')): Clock & { advanceMinutes(m: number): void } {
  let now = start;
  return {
    now: () => now,
    advanceMinutes(m: number) {
      now += m * 60_000;
    },
  };
}
