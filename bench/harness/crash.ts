/**
 * kill -9 during concurrent HTTP ingest: each cycle starts `engram serve`, runs `workers` concurrent writers
 * (POST /v1/events, one event each, unique content) for a random 0.5–2.5 s once it is ready, SIGKILLs the server mid-stream,
 * and — before the next cycle writes — restarts it and checks that every acknowledged (201) event is there.
 * Integrity: the restarted server is ready and lists each event once; on SQLite also `PRAGMA integrity_check`
 * of the file itself, read-only, while no server has it open.
 */
import Database from 'better-sqlite3';
import { allEventIds, call, startServer, tenantKey, type ServerChild } from './server.js';

export interface CrashOptions {
  store: string;
  /** The SQLite file behind `store`, for the integrity check (undefined for PostgreSQL). */
  sqlitePath?: string;
  cycles: number;
  workers: number;
  log?: (line: string) => void;
}

export interface CrashResult {
  cycles: number;
  acked: number;
  lost: number;
  duplicates: number;
  integrity: 'ok' | string;
  /** Answers to the writes, by status (0: connection lost, as the kill lands). */
  statuses: Record<number, number>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Until /readyz says ready (the model is loaded): the kill should land in ingest, not in start-up. */
async function ready(server: ServerChild): Promise<number> {
  for (let i = 0; i < 600; i++) {
    const r = await call(server.url, 'GET', '/readyz');
    if (r.status === 200) return r.status;
    await sleep(100);
  }
  return 503;
}

async function ingestUntilKilled(server: ServerChild, key: string, cycle: number, workers: number, acked: Set<string>, statuses: Record<number, number>): Promise<void> {
  await ready(server);
  let stop = false;
  const worker = async (w: number) => {
    for (let i = 0; !stop; i++) {
      const r = await call<{ id: string }>(server.url, 'POST', '/v1/events', key, { content: `crash cycle ${cycle} writer ${w} write ${i}`, session_id: `crash-${cycle}` });
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status === 201) acked.add(r.body.id);
      else if (r.status === 0) return; // the server is gone
    }
  };
  const running = Array.from({ length: workers }, (_, w) => worker(w));
  await sleep(500 + Math.random() * 2000);
  await server.stop('SIGKILL');
  stop = true;
  await Promise.all(running);
}

export async function runCrash(o: CrashOptions): Promise<CrashResult> {
  const log = o.log ?? (() => undefined);
  const acked = new Set<string>();
  const statuses: Record<number, number> = {};
  let server = await startServer(o.store);
  if (!server.adminKey) throw new Error('expected a fresh store (no admin key was printed)');
  const key = await tenantKey(server.url, server.adminKey, 'crash');
  let lost = 0;
  let duplicates = 0;
  let integrity = 'ok';
  try {
    for (let cycle = 1; cycle <= o.cycles; cycle++) {
      await ingestUntilKilled(server, key, cycle, o.workers, acked, statuses);
      if (o.sqlitePath) {
        const check = sqliteIntegrity(o.sqlitePath);
        if (check !== 'ok') integrity = `cycle ${cycle}: ${check}`;
      }
      server = await startServer(o.store);
      const status = await ready(server);
      if (status !== 200) integrity = `cycle ${cycle}: /readyz ${status}`;
      const ids = await allEventIds(server.url, key);
      const present = new Set(ids);
      duplicates = ids.length - present.size;
      lost = [...acked].filter((id) => !present.has(id)).length;
      log(`cycle ${cycle}/${o.cycles}: acked ${acked.size}, stored ${present.size}, lost ${lost}, integrity ${integrity}`);
      if (lost > 0 || duplicates > 0) break;
    }
  } finally {
    await server.stop('SIGTERM');
  }
  return { cycles: o.cycles, acked: acked.size, lost, duplicates, integrity, statuses };
}

function sqliteIntegrity(path: string): string {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}
