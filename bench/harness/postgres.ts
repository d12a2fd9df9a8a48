/** A scratch PostgreSQL database for one harness run: created, handed over as a URL, dropped afterwards. */
import pg from 'pg';

export async function withScratchPostgres<T>(serverUrl: string, prefix: string, fn: (url: string) => Promise<T>): Promise<T> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: `${serverUrl.replace(/\/$/, '')}/postgres` });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      return await fn(`${serverUrl.replace(/\/$/, '')}/${name}`);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}
