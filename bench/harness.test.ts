/**
 * The hardening harnesses, short: a few kill -9 cycles on SQLite and one on PostgreSQL, a few hundred hostile
 * requests from the OpenAPI document, a ~20 s soak. The full sizes run with `npm run bench:crash|fuzz|soak`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrash } from './harness/crash.js';
import { runFuzz } from './harness/fuzz.js';
import { withScratchPostgres } from './harness/postgres.js';
import { startServer, tenantKey, type ServerChild } from './harness/server.js';
import { runSoak, windowGrowth, type SoakSample } from './harness/soak.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'engram-harness-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench:crash (short)', () => {
  it('loses no acknowledged write over 3 kill -9 cycles on SQLite, and the file stays intact', async () => {
    const path = join(dir, 'crash.db');
    const r = await runCrash({ store: `sqlite:${path}`, sqlitePath: path, cycles: 3, workers: 4 });
    expect(r.acked).toBeGreaterThan(0);
    expect(r).toMatchObject({ lost: 0, duplicates: 0, integrity: 'ok' });
  }, 240_000);

  it('loses no acknowledged write over a kill -9 cycle on PostgreSQL', async () => {
    const r = await withScratchPostgres('postgres://postgres@127.0.0.1:5432', 'engram_crash_test', (url) => runCrash({ store: url, cycles: 1, workers: 4 }));
    expect(r.acked).toBeGreaterThan(0);
    expect(r).toMatchObject({ lost: 0, duplicates: 0, integrity: 'ok' });
  }, 180_000);
});

describe('bench:fuzz and bench:soak (short)', () => {
  let server: ServerChild;
  let key: string;
  beforeAll(async () => {
    server = await startServer(`sqlite:${join(dir, 'fuzz.db')}`);
    key = await tenantKey(server.url, server.adminKey!, 'fuzz');
  }, 120_000);
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it('answers 300 hostile requests without a 5xx, and rejected requests write nothing', async () => {
    const r = await runFuzz({ url: server.url, key, requests: 300, seed: 7 });
    expect(r.serverErrors).toEqual([]);
    expect(r.byStatus[400]).toBeGreaterThan(100);
    expect(r.observedWrites).toBe(r.expectedWrites);
  }, 120_000);

  it('serves ~20 s of mixed load without errors, sampling RSS', async () => {
    const r = await runSoak({ server, key, durationMs: 20_000, warmupMs: 5_000, sampleMs: 2_000 });
    expect(r.errors).toBe(0);
    expect(r.requests).toBeGreaterThan(20);
    expect(r.writes).toBeGreaterThan(0);
    expect(r.samples.length).toBeGreaterThanOrEqual(5);
    expect(r.endMb).toBeGreaterThan(0);
    expect(r.end.anonMb).toBeGreaterThan(0);
    expect(r.end.anonMb + r.end.fileMb).toBeCloseTo(r.endMb, -1);
  }, 120_000);
});

describe('soak growth by window medians', () => {
  const sample = (s: number, rssMb: number, writes: number): SoakSample => ({ atMs: s * 1000, rssMb, anonMb: rssMb - 50, fileMb: 50, writes });
  it('compares the medians of the first and last windows after the warm-up, and per 1,000 writes', () => {
    // Warm-up samples (ignored), then a sawtooth around 500 MB, then around 550 MB.
    const samples = [sample(0, 100, 0), sample(5, 900, 50), ...[480, 520, 500].map((mb, i) => sample(10 + i * 10, mb, 100 + i * 100)), sample(40, 700, 400), ...[530, 570, 550].map((mb, i) => sample(50 + i * 10, mb, 500 + i * 100))];
    const w = windowGrowth(samples, 10_000, 25_000, 'rssMb');
    expect(w).toMatchObject({ fromMb: 500, toMb: 550 });
    expect(w.pct).toBeCloseTo(10);
    // 50 MB over the 400 writes between the windows' medians (200 → 600).
    expect(w.mbPer1kWrites).toBeCloseTo(125);
    expect(windowGrowth(samples, 10_000, 25_000, 'fileMb').pct).toBe(0);
  });
});
