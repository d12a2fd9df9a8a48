/**
 * Soak: mixed load on `engram serve` for a while — writes (events and facts), search, getContext and the
 * occasional list — from `workers` concurrent clients, with the server's RSS sampled every `sampleMs`. Growth
 * is measured from the end of the warm-up (caches, model, indexes filled) to the end of the run, then once
 * more after an idle pause (memory kept while idle is what a leak looks like).
 */
import { call, rssMb, type ServerChild } from './server.js';

export interface SoakOptions {
  server: ServerChild;
  key: string;
  durationMs: number;
  warmupMs: number;
  idleMs?: number;
  workers?: number;
  sampleMs?: number;
  /**
   * false: after the warm-up only reads (search, context, list), so the data stops growing and RSS growth left
   * is not the indexes following the data. Default true (the mixed load throughout).
   */
  writesAfterWarmup?: boolean;
  log?: (line: string) => void;
}

export interface SoakResult {
  requests: number;
  errors: number;
  samples: { atMs: number; rssMb: number }[];
  afterWarmupMb: number;
  endMb: number;
  idleMb: number;
  growthPct: number;
}

const WORDS = ['deploy', 'rollback', 'refund', 'invoice', 'latency', 'cluster', 'policy', 'customer', 'payments', 'timeout', 'replica', 'canary', 'schema', 'backup'];
const text = (i: number) => Array.from({ length: 12 }, (_, j) => WORDS[(i * 7 + j * 5 + (i >> (j % 5))) % WORDS.length]).join(' ');

export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const { url } = o.server;
  const samples: SoakResult['samples'] = [];
  const t0 = performance.now();
  let requests = 0;
  let errors = 0;
  let n = 0;
  const sampler = setInterval(() => {
    void rssMb(o.server.pid).then((mb) => {
      samples.push({ atMs: Math.round(performance.now() - t0), rssMb: mb });
      o.log?.(`t=${((performance.now() - t0) / 1000).toFixed(0)}s rss=${mb.toFixed(0)} MB requests=${requests}`);
    });
  }, o.sampleMs ?? 5_000);
  const worker = async (w: number) => {
    while (performance.now() - t0 < o.durationMs) {
      const i = n++;
      const writing = o.writesAfterWarmup !== false || performance.now() - t0 < o.warmupMs;
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
      if (r.status === 0 || r.status >= 500) errors++;
    }
  };
  await Promise.all(Array.from({ length: o.workers ?? 4 }, (_, w) => worker(w)));
  clearInterval(sampler);
  const endMb = await rssMb(o.server.pid);
  await new Promise((r) => setTimeout(r, o.idleMs ?? 0));
  const idleMb = await rssMb(o.server.pid);
  const afterWarmup = samples.find((s) => s.atMs >= o.warmupMs)?.rssMb ?? samples[0]?.rssMb ?? endMb;
  return { requests, errors, samples, afterWarmupMb: afterWarmup, endMb, idleMb, growthPct: ((endMb - afterWarmup) / afterWarmup) * 100 };
}
