/** Small helpers shared by the benchmark scripts. */
import { statSync, existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i]!;
}

export const median = (xs: readonly number[]): number => percentile(xs, 50);

export async function timeEach<T>(items: readonly T[], fn: (x: T) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (const x of items) {
    const t0 = performance.now();
    await fn(x);
    out.push(performance.now() - t0);
  }
  return out;
}

export interface Latency {
  p50: number;
  p95: number;
  p99: number;
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

export function machine(): string {
  return `${cpus().length} cores (${cpus()[0]?.model ?? 'cpu'}), ${round(totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}`;
}

/** Prints rows as an aligned text table. */
export function table(rows: Record<string, string | number>[]): string {
  if (rows.length === 0) return '';
  const cols = Object.keys(rows[0]!);
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(width[i]!)).join('  ');
  return [line(cols), line(width.map((w) => '-'.repeat(w))), ...rows.map((r) => line(cols.map((c) => String(r[c]))))].join('\n');
}
