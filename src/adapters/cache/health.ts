/** Counters for benchmarks, and the outage state that makes a Redis failure log once rather than per call. */
import { FAMILIES, type Family } from './keys.js';

export interface CacheLogger {
  warn(message: string): void;
  info?(message: string): void;
}

export interface FamilyStats {
  hits: number;
  misses: number;
  /** Reads that went straight to the primary because Redis was down or an invalidation was still pending. */
  bypasses: number;
}

export interface CacheStats extends FamilyStats {
  /** Failed Redis commands (each one was answered from, or left to, the primary). */
  errors: number;
  /** Entries written (fills and write-throughs). */
  fills: number;
  /** Generation tokens bumped. */
  invalidations: number;
  /** Transitions from answering to failing. */
  outages: number;
  byFamily: Record<Family, FamilyStats>;
}

const zero = (): FamilyStats => ({ hits: 0, misses: 0, bypasses: 0 });

export class CacheHealth {
  private down = false;
  private readonly counts = { errors: 0, fills: 0, invalidations: 0, outages: 0 };
  private readonly families = Object.fromEntries(FAMILIES.map((f) => [f, zero()])) as Record<Family, FamilyStats>;

  constructor(private readonly logger: CacheLogger) {}

  get isDown(): boolean {
    return this.down;
  }

  count(family: Family, what: keyof FamilyStats): void {
    this.families[family][what] += 1;
  }

  filled(): void {
    this.counts.fills += 1;
  }

  invalidated(n: number): void {
    this.counts.invalidations += n;
  }

  /** A command failed: logs the first failure of an outage only. */
  failed(err: unknown): void {
    this.counts.errors += 1;
    if (this.down) return;
    this.down = true;
    this.counts.outages += 1;
    const reason = err instanceof Error ? err.message : String(err);
    this.logger.warn(`redis cache unavailable (${reason}); serving from the primary store until it answers again`);
  }

  /** A command succeeded: ends an outage. */
  answered(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.info?.('redis cache answering again');
  }

  stats(): CacheStats {
    const byFamily = Object.fromEntries(FAMILIES.map((f) => [f, { ...this.families[f] }])) as Record<Family, FamilyStats>;
    const sum = (k: keyof FamilyStats) => FAMILIES.reduce((n, f) => n + byFamily[f][k], 0);
    return { hits: sum('hits'), misses: sum('misses'), bypasses: sum('bypasses'), ...this.counts, byFamily };
  }
}
