/** Percentiles and process figures for the perf bench (the same helpers as bench/stats.ts, compiled). */
import { existsSync, statSync } from 'node:fs';

export interface Latency {
  p50: number;
  p95: number;
  p99: number;
}

export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i]!;
}

export async function timeEach<T>(items: readonly T[], fn: (x: T) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (const x of items) {
    const t0 = performance.now();
    await fn(x);
    out.push(performance.now() - t0);
  }
  return out;
}

export function latency(ms: readonly number[]): Latency {
  return { p50: round(percentile(ms, 50)), p95: round(percentile(ms, 95)), p99: round(percentile(ms, 99)) };
}

export function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export function fileSizeMb(path: string): number {
  const size = ['', '-wal', '-shm'].map((s) => path + s).filter(existsSync).reduce((a, p) => a + statSync(p).size, 0);
  return round(size / 1048576, 1);
}

export function rssMb(): number {
  return round(process.memoryUsage().rss / 1048576, 0);
}
