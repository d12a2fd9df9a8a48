/**
 * Opens the Engram instance the LoCoMo bench reads from: a SQLite file in the cache dir keyed by the data's
 * hash, built once (every conversation its own tenant, turns as events) and reused while its `.ok` marker
 * exists, so a re-run only embeds the questions it has not seen (the embedding cache holds the rest).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHeuristicReranker } from '../../src/index.js';
import { openSqliteStorage } from '../../src/index.js';
import { createMemory, type Memory } from '../../src/index.js';
import type { Embedder } from '../../src/index.js';
import { EngramError } from '../../src/index.js';
import { splitLongText } from '../../src/write/split-long.js';
import type { LocomoConversation } from './dataset.js';
import type { ParaphraseSet } from './paraphrase.js';

/** Bump when the ingest recipe changes so cached databases are rebuilt. */
const RECIPE = 'locomo-ingest-v4';
/** The engine's default content limit (`limits.maxContentChars`): a longer turn is split or refused up front. */
export const MAX_TURN_CHARS = 32_768;

/**
 * Refuses, before anything is opened or embedded, a conversation with a turn over the content limit, naming it
 * and the option that imports it in parts instead.
 */
export function checkTurnLengths(conversations: readonly LocomoConversation[], chunkLong: boolean): void {
  if (chunkLong) return;
  for (const c of conversations) {
    const t = c.turns.find((x) => x.text.length > MAX_TURN_CHARS);
    if (t) {
      throw new EngramError('VALIDATION', `${c.id} turn ${t.diaId} has ${t.text.length} characters, over the content limit of ${MAX_TURN_CHARS}; pass --chunk-long to import long turns as consecutive parts`, {
        issues: [{ path: `${c.id}.${t.diaId}`, message: `at most ${MAX_TURN_CHARS} characters` }],
      });
    }
  }
}

/** A clock the bench can set to a question's own date while it is asked (the system time otherwise). */
export interface BenchClock {
  now(): number;
  at: number | undefined;
}

export function benchClock(): BenchClock {
  const c: BenchClock = { at: undefined, now: () => c.at ?? Date.now() };
  return c;
}
export const PARAPHRASE_TENANT = 'paraphrase-dev';

/** Keeps one model instance across the memories a bench opens (Memory.close closes its embedder). */
export function keepOpen(e: Embedder): Embedder {
  return { get model() { return e.model; }, get dimension() { return e.dimension; }, init: () => e.init(), embed: (t, o) => e.embed(t, o), close: async () => undefined };
}

export function dataKey(parts: readonly string[]): string {
  const h = createHash('sha256').update(RECIPE);
  for (const p of parts) h.update('\0').update(p);
  return h.digest('hex').slice(0, 16);
}

export interface LocomoEngine {
  memory: Memory;
  /** Event id → dia id, per tenant. */
  diaOf: Map<string, string>;
  /** Paraphrase memory id by event id. */
  paraOf: Map<string, string>;
  reused: boolean;
  ingestSeconds: number;
  close(): Promise<void>;
}

export async function openLocomoEngine(opts: {
  conversations: LocomoConversation[];
  paraphrase: ParaphraseSet;
  embedder: Embedder;
  cacheDir: string;
  key: string;
  log: (s: string) => void;
  /** Turns over the content limit are written as consecutive events with the same dia id. */
  chunkLong?: boolean | undefined;
  clock?: BenchClock | undefined;
}): Promise<LocomoEngine> {
  mkdirSync(opts.cacheDir, { recursive: true });
  const path = join(opts.cacheDir, `${opts.key}.db`);
  const marker = `${path}.ok`;
  const reused = existsSync(path) && existsSync(marker);
  if (!reused) for (const p of [path, `${path}-wal`, `${path}-shm`, marker]) rmSync(p, { force: true });
  const memory = await createMemory({
    storage: await openSqliteStorage({ path }),
    embedder: keepOpen(opts.embedder),
    reranker: createHeuristicReranker(),
    ...(opts.clock ? { clock: opts.clock } : {}),
    // Learning runs on demand only: the bench measures retrieval over the turns as written.
    config: { retention: { sweepIntervalMinutes: 0 }, learn: { engine: { background: false } } },
  });
  let ingestSeconds = 0;
  if (!reused) {
    const t0 = performance.now();
    for (const c of opts.conversations) {
      opts.log(`ingest ${c.id}: ${c.turns.length} turns`);
      await memory.logEvents(
        c.turns.flatMap((t) =>
          splitLongText(t.text, opts.chunkLong ? MAX_TURN_CHARS : Infinity).map((content) => ({
            tenant: c.id,
            sessionId: `S${t.session}`,
            type: 'message' as const,
            name: t.speaker,
            content,
            ts: t.ts,
            metadata: { dia_id: t.diaId },
          })),
        ),
      );
    }
    await memory.logEvents(opts.paraphrase.memories.map((m, i) => ({ tenant: PARAPHRASE_TENANT, type: 'note' as const, content: m.text, ts: Date.UTC(2025, 0, 1) + i * 60_000, metadata: { memory_id: m.id } })));
    opts.log('embedding the turns (cached on disk by content hash)…');
    await memory.flush();
    ingestSeconds = (performance.now() - t0) / 1000;
    writeFileSync(marker, JSON.stringify({ at: new Date().toISOString() }));
  } else {
    opts.log(`reusing ${path} (written ${String((JSON.parse(readFileSync(marker, 'utf8')) as { at?: string }).at)})`);
  }
  const diaOf = new Map<string, string>();
  const paraOf = new Map<string, string>();
  for (const c of opts.conversations) {
    for (const e of await memory.fetchEvents({ tenant: c.id, limit: 10_000 })) {
      if (typeof e.metadata.dia_id === 'string') diaOf.set(e.id, e.metadata.dia_id);
    }
  }
  for (const e of await memory.fetchEvents({ tenant: PARAPHRASE_TENANT, limit: 10_000 })) {
    if (typeof e.metadata.memory_id === 'string') paraOf.set(e.id, e.metadata.memory_id);
  }
  return { memory, diaOf, paraOf, reused, ingestSeconds, close: () => memory.close() };
}
