/**
 * Soak: mixed load on `engram serve` for a while — writes (events and facts), search, getContext and the
 * occasional list — from `workers` concurrent clients, with the server's resident memory sampled every
 * `sampleMs`. Growth is measured from the end of the warm-up (caches, model, indexes filled) to the end of the
 * run, then once more after an idle pause (memory kept while idle is what a leak looks like).
 *
 * Two readings of the growth, because one sample is a poor witness: RSS saws up and down by tens of MB as the
 * JS heap fills with garbage and is collected. `growthPct` compares the first sample after the warm-up with the
 * last one (the historical figure); the window figures compare the medians of the samples in the first and last
 * `windowMs` after the warm-up. RSS is also split into anonymous memory (the process's own) and mapped file
 * pages (the SQLite database read through its memory map, which grows with the file and which the kernel may
 * drop), and growth is given per 1,000 writes acknowledged after the warm-up: memory that follows the data (the
 * in-memory search indexes, the page cache) grows with the writes; a leak grows with requests or time.
 */
import { call, residentMb, type ServerChild } from './server.js';

export interface SoakOptions {
  server: ServerChild;
  key: string;
  durationMs: number;
  warmupMs: number;
  idleMs?: number;
  workers?: number;
  sampleMs?: number;
  /** Width of the windows whose medians are compared (default: a quarter of the time after the warm-up, ≤ 3 min). */
  windowMs?: number;
  /**
   * false: after the warm-up only reads (search, context, list), so the data stops growing and RSS growth left
   * is not the indexes following the data. Default true (the mixed load throughout).
   */
  writesAfterWarmup?: boolean;
  log?: (line: string) => void;
}

export interface SoakSample {
  atMs: number;
  rssMb: number;
  anonMb: number;
  fileMb: number;
  /** Writes acknowledged (201) so far. */
  writes: number;
}

export interface WindowGrowth {
  /** Median of the samples in the first window after the warm-up and in the last window, MB. */
  fromMb: number;
  toMb: number;
  pct: number;
  /** MB per 1,000 writes acknowledged between the two windows' middles (NaN when none). */
  mbPer1kWrites: number;
}

export interface SoakResult {
  requests: number;
  errors: number;
  /** Writes acknowledged (events and facts) in the whole run and after the warm-up. */
  writes: number;
  writesAfterWarmup: number;
  samples: SoakSample[];
  afterWarmupMb: number;
  endMb: number;
  idleMb: number;
  /** Anonymous and mapped-file resident memory at the end and after the idle pause. */
  end: { anonMb: number; fileMb: number; embeddingBacklog: number | undefined };
  idle: { anonMb: number; fileMb: number; embeddingBacklog: number | undefined };
  /** First sample after the warm-up to the end, RSS (as reported before window medians were added). */
  growthPct: number;
  window: { rss: WindowGrowth; anon: WindowGrowth; file: WindowGrowth };
}

const WORDS = ['deploy', 'rollback', 'refund', 'invoice', 'latency', 'cluster', 'policy', 'customer', 'payments', 'timeout', 'replica', 'canary', 'schema', 'backup'];
const text = (i: number) => Array.from({ length: 12 }, (_, j) => WORDS[(i * 7 + j * 5 + (i >> (j % 5))) % WORDS.length]).join(' ');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Medians of the first and last `windowMs` of samples from `fromMs` on, for one field. */
export function windowGrowth(samples: readonly SoakSample[], fromMs: number, windowMs: number, field: 'rssMb' | 'anonMb' | 'fileMb'): WindowGrowth {
  const after = samples.filter((s) => s.atMs >= fromMs);
  const endMs = after.at(-1)?.atMs ?? fromMs;
  const first = after.filter((s) => s.atMs < fromMs + windowMs);
  const last = after.filter((s) => s.atMs > endMs - windowMs);
  const fromMb = median(first.map((s) => s[field]));
  const toMb = median(last.map((s) => s[field]));
  const writes = median(last.map((s) => s.writes)) - median(first.map((s) => s.writes));
  return { fromMb, toMb, pct: ((toMb - fromMb) / fromMb) * 100, mbPer1kWrites: writes > 0 ? ((toMb - fromMb) / writes) * 1000 : NaN };
}

/** Writes not embedded yet (`/readyz`): background work the server still has to do when the load stops. */
async function embeddingBacklog(url: string): Promise<number | undefined> {
  const r = await call<{ embedding_backlog?: number }>(url, 'GET', '/readyz');
  return r.body?.embedding_backlog;
}

export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const { url } = o.server;
  const samples: SoakSample[] = [];
  const t0 = performance.now();
  let requests = 0;
  let errors = 0;
  let writes = 0;
  let writesAtWarmup: number | undefined;
  let n = 0;
  const sampler = setInterval(() => {
    const atMs = Math.round(performance.now() - t0);
    const w = writes;
    void residentMb(o.server.pid).then((m) => {
      samples.push({ atMs, rssMb: m.rss, anonMb: m.anon, fileMb: m.file, writes: w });
      o.log?.(`t=${(atMs / 1000).toFixed(0)}s rss=${m.rss.toFixed(0)} MB (anon ${m.anon.toFixed(0)}, file ${m.file.toFixed(0)}) requests=${requests} writes=${w}`);
    });
  }, o.sampleMs ?? 5_000);
  const worker = async (w: number) => {
    while (performance.now() - t0 < o.durationMs) {
      const i = n++;
      const inWarmup = performance.now() - t0 < o.warmupMs;
      if (!inWarmup) writesAtWarmup ??= writes;
      const writing = o.writesAfterWarmup !== false || inWarmup;
      const kind = writing || i % 10 >= 5 ? i % 10 : 5 + (i % 5);
      const r =
        kind < 4
          ? await call(url, 'POST', '/v1/events', o.key, { content: `${text(i)} #${i}`, session_id: `soak-${w}-${i % 50}`, metadata: { i } })
          : kind === 4
            ? await call(url, 'POST', '/v1/facts', o.key, { text: `Soak rule ${i}: ${text(i)}.`, key: `soak-rule-${i % 500}` })
            : kind < 8
              ? await call(url, 'POST', '/v1/search', o.key, { query: text(i * 3) })
              : kind === 8
                ? await call(url, 'POST', '/v1/context', o.key, { query: text(i * 5), config: { episodic_window: { filters: { session_id: `soak-${w}-${i % 50}` } } } })
                : await call(url, 'GET', `/v1/events?limit=50&session_id=soak-${w}-${i % 50}`, o.key);
      requests++;
      if (kind <= 4 && r.status === 201) writes++;
      if (r.status === 0 || r.status >= 500) errors++;
    }
  };
  await Promise.all(Array.from({ length: o.workers ?? 4 }, (_, w) => worker(w)));
  clearInterval(sampler);
  const end = await residentMb(o.server.pid);
  const endBacklog = await embeddingBacklog(url);
  await new Promise((r) => setTimeout(r, o.idleMs ?? 0));
  const idle = await residentMb(o.server.pid);
  const idleBacklog = await embeddingBacklog(url);
  const afterWarmup = samples.find((s) => s.atMs >= o.warmupMs)?.rssMb ?? samples[0]?.rssMb ?? end.rss;
  const windowMs = o.windowMs ?? Math.min(180_000, Math.max(o.sampleMs ?? 5_000, (o.durationMs - o.warmupMs) / 4));
  return {
    requests,
    errors,
    writes,
    writesAfterWarmup: writes - (writesAtWarmup ?? writes),
    samples,
    afterWarmupMb: afterWarmup,
    endMb: end.rss,
    idleMb: idle.rss,
    end: { anonMb: end.anon, fileMb: end.file, embeddingBacklog: endBacklog },
    idle: { anonMb: idle.anon, fileMb: idle.file, embeddingBacklog: idleBacklog },
    growthPct: ((end.rss - afterWarmup) / afterWarmup) * 100,
    window: {
      rss: windowGrowth(samples, o.warmupMs, windowMs, 'rssMb'),
      anon: windowGrowth(samples, o.warmupMs, windowMs, 'anonMb'),
      file: windowGrowth(samples, o.warmupMs, windowMs, 'fileMb'),
    },
  };
}
