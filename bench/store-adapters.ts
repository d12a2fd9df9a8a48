/**
 * bench:store's adapters: each opened fresh in a temp dir (or a scratch database on the PostgreSQL server),
 * with its size on disk and a cleanup that removes everything the bench created.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteStorage } from '../src/index.js';
import type { Storage } from '../src/index.js';
import { fileSizeMb, round } from './stats.js';

export const ADAPTERS = ['sqlite', 'pglite', 'pglite-socket', 'postgres'] as const;
export type AdapterName = (typeof ADAPTERS)[number];

export interface Opened {
  storage: Storage;
  /** Database size on disk, in MB. */
  sizeMb(): Promise<number>;
  /** Closes the storage (already closed by memory.close) and removes everything the bench created. */
  cleanup(): Promise<void>;
}

export async function openAdapter(adapter: AdapterName, row: { memories: number; notes: string[] }, pgUrl: string): Promise<Opened> {
  const warn = (message: string) => {
    if (!row.notes.includes(message)) row.notes.push(message);
  };
  const logger = { warn };
  switch (adapter) {
    case 'sqlite': {
      const dir = mkdtempSync(join(tmpdir(), 'engram-bench-store-'));
      const path = join(dir, 'bench.db');
      return {
        storage: await openSqliteStorage({ path }),
        sizeMb: async () => fileSizeMb(path),
        cleanup: async () => rmSync(dir, { recursive: true, force: true }),
      };
    }
    case 'pglite': {
      const dir = mkdtempSync(join(tmpdir(), 'engram-bench-pglite-'));
      const pg = await import('../src/adapters/storage/postgres/index.js');
      const pool = await pg.openPglitePool({ dataDir: dir });
      return {
        storage: await pg.openPostgresStorage({ pool, logger }),
        sizeMb: async () => dirSizeMb(dir),
        cleanup: async () => {
          await pool.end();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    case 'pglite-socket': {
      const dir = mkdtempSync(join(tmpdir(), 'engram-bench-pglite-socket-'));
      const server = await startPgliteServer(dir);
      const pg = await import('../src/adapters/storage/postgres/index.js');
      // PGlite runs one statement at a time; with pg's default 10 s connection timeout a client queued behind a
      // slow statement fails, so the pool waits without a limit (2 connections: lexical and vector in parallel).
      const pool = await pg.createPgPool({ url: server.url, max: 2, connectionTimeoutMillis: 0 });
      try {
        return {
          storage: await pg.openPostgresStorage({ pool, logger }),
          sizeMb: async () => dirSizeMb(dir),
          cleanup: async () => {
            await pool.end();
            await server.stop();
            rmSync(dir, { recursive: true, force: true });
          },
        };
      } catch (e) {
        await pool.end();
        await server.stop();
        rmSync(dir, { recursive: true, force: true });
        throw e;
      }
    }
    case 'postgres': {
      const pgmod = (await import('pg')).default;
      const adminUrl = pgUrl;
      const db = `engram_bench_${process.pid}_${row.memories}`;
      const admin = new pgmod.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${db}`);
      await admin.query(`CREATE DATABASE ${db}`);
      const url = new URL(adminUrl);
      url.pathname = `/${db}`;
      const pg = await import('../src/adapters/storage/postgres/index.js');
      const dropDb = async () => {
        await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch((e: unknown) => warn(`could not drop ${db}: ${String(e)}`));
        await admin.end();
      };
      try {
        return {
          storage: await pg.openPostgresStorage({ url: url.toString(), poolSize: 10, logger }),
          sizeMb: async () => {
            const r = await admin.query<{ size: string }>('SELECT pg_database_size($1) AS size', [db]);
            return round(Number(r.rows[0]!.size) / 1048576, 1);
          },
          cleanup: dropDb,
        };
      } catch (e) {
        await dropDb();
        throw e;
      }
    }
  }
}

function dirSizeMb(dir: string): number {
  let bytes = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) bytes += statSync(p).size;
    }
  };
  walk(dir);
  return round(bytes / 1048576, 1);
}

/** PGlite + pgvector in a child process (pglite-server.ts), served on a free loopback port. */
async function startPgliteServer(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [...process.execArgv, fileURLToPath(new URL('./pglite-server.ts', import.meta.url)), dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('pglite-socket server did not start within 120 s')), 120_000);
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /^listening (\S+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`postgres://postgres@${m[1]}/postgres`);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`pglite-socket server exited (${code})`));
    });
  }).catch(async (e: unknown) => {
    await stop();
    throw e;
  });
  return { url, stop };
}
