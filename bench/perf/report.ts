/** Terminal rendering and the latency-vs-N chart of a perf report. */
import { table } from '../locomo/report.js';
import { lineChartSvg } from './chart.js';
import type { PerfReport } from './run.js';

const f = (x: number) => String(x);

export function renderPerf(r: PerfReport): string {
  const lines = [`machine: ${r.machine}; load average ${r.loadAvg.join(' ')}; model embeddings ${r.modelEmbeddingsPerSec}/s (USE-lite, 2 workers)`, ''];
  lines.push(
    table(
      r.sizes.map((s) => ({
        N: f(s.n),
        'warm s': f(s.warmSeconds),
        'ack p50/p95 ms': `${s.ackMs.p50}/${s.ackMs.p95}`,
        'bulk ev/s': f(s.bulkEventsPerSec),
        'drain/s': f(s.drainPerSec),
        'search p50/p95/p99 ms': `${s.search.p50}/${s.search.p95}/${s.search.p99}`,
        'getContext p50/p95/p99 ms': `${s.getContext.p50}/${s.getContext.p95}/${s.getContext.p99}`,
        'RSS MB': f(s.rssMb),
        'DB MB': f(s.dbMb),
        'ANN recall@10 (ε 1%)': s.ann ? (s.ann.recallAt10 === null ? `n/a (${s.ann.mode})` : `${s.ann.recallAt10} (${s.ann.nearRecallAt10}) ${s.ann.mode}`) : '-',
        'exact/ANN p95 ms': s.ann ? `${s.ann.exactMs.p95}/${s.ann.annMs.p95}` : '-',
      })),
    ),
  );
  if (r.mem0) {
    const m = r.mem0;
    lines.push('', `Mem0 side by side at ${m.n} memories (one user, file-backed stores, same vectors)`);
    const inFlight = `durable adds/s, ${m.concurrency} in flight`;
    lines.push(
      table([
        { system: 'Engram', 'durable adds/s, sequential': f(m.engramLogEventPerSec), [inFlight]: f(m.engramConcurrentLogEventPerSec), 'batch call (1,000)/s': f(m.engramBatchLogEventsPerSec), 'search p50/p95 ms': `${m.engramSearchMs.p50}/${m.engramSearchMs.p95}`, 'precision@10': f(m.engramPrecision10) },
        { system: 'Mem0', 'durable adds/s, sequential': f(m.mem0AddPerSec), [inFlight]: f(m.mem0ConcurrentAddPerSec), 'batch call (1,000)/s': f(m.mem0BatchAddPerSec), 'search p50/p95 ms': `${m.mem0SearchMs.p50}/${m.mem0SearchMs.p95}`, 'precision@10': f(m.mem0Precision10) },
      ]),
    );
    lines.push(`ratios: ingest ${m.ingestRatio}× sequential, ${m.concurrentIngestRatio}× with ${m.concurrency} in flight, ${m.batchIngestRatio}× through the batch calls; search p95 ${m.searchP95Ratio}× faster`);
    const w = m.withModel;
    if (w) {
      lines.push(
        `with the model in the loop (USE-lite, ${w.n} adds one at a time): Mem0 add ${w.mem0AddPerSec}/s; Engram durable ack ${w.engramAckPerSec}/s (${w.ackRatio}×), all ${w.n} vector-searchable at ${w.engramIndexedPerSec}/s (${w.indexedRatio}×)`,
      );
    }
  }
  if (r.mem0Note) lines.push(r.mem0Note);
  return lines.join('\n');
}

export function perfChart(r: PerfReport): string {
  const pick = (name: string, get: (s: PerfReport['sizes'][number]) => number) => ({ name, points: r.sizes.map((s) => ({ x: s.n, y: get(s) })) });
  return lineChartSvg('Engram latency vs stored memories', 'memories (log scale)', 'ms', [
    pick('search p50', (s) => s.search.p50),
    pick('search p95', (s) => s.search.p95),
    pick('getContext p50', (s) => s.getContext.p50),
    pick('getContext p95', (s) => s.getContext.p95),
  ]);
}
