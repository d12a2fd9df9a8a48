/**
 * forget --user takes the user's working memory with it: on a SQLite file (byte search of every file after the
 * forget's own checkpoint, with secure_delete zeroing freed pages) and on PostgreSQL (queries).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { adminPool, requireServer, SERVER_URL } from '../testing/postgres-server.js';
import { bytesUnder } from '../testing/files.js';
import { openTestMemory, sharedEmbedder } from '../testing/memory-fixture.js';
import { createHeuristicReranker } from './adapters/rerankers/heuristic.js';
import { openPostgresStorage } from './adapters/storage/postgres/index.js';
import { createMemory, type Memory } from './memory.js';

const ALICE_NOTE = 'alice-scratch-QUOKKA-7731 keeps her staging password rotation notes here';
const ALICE_TEXT = 'alice-event-WOMBAT-5520 asked to move her invoices';
const BOB_NOTE = 'bob-scratch-NUMBAT-1188 keeps his own notes';
/** In a session where Alice left no event or fact: found by the writer the scratchpad records. */
const ALICE_PAD = 'alice-pad-BILBY-4409 drafts of her complaint';

async function populate(memory: Memory): Promise<void> {
  await memory.logEvent({ userId: 'u-alice', sessionId: 's-alice', content: ALICE_TEXT });
  await memory.logEvent({ userId: 'u-bob', sessionId: 's-bob', content: 'bob asked about refunds' });
  await memory.working.append({ sessionId: 's-alice', content: ALICE_NOTE, kind: 'note' });
  await memory.working.setPlan({ sessionId: 's-alice', plan: `1. ${ALICE_NOTE}` });
  await memory.working.append({ sessionId: 's-bob', content: BOB_NOTE, kind: 'note' });
  await memory.working.append({ userId: 'u-alice', sessionId: 's-alice-pad', content: ALICE_PAD, kind: 'note' });
  await memory.working.append({ userId: 'u-bob', sessionId: 's-bob-pad', content: BOB_NOTE, kind: 'note' });
  await memory.flush();
}

async function forgetAlice(memory: Memory) {
  const report = await memory.forget({ scope: { userId: 'u-alice' } });
  expect(report).toMatchObject({ events: 1, workingMemories: 2 });
  expect(await memory.working.toContext({ sessionId: 's-alice' })).toBe('');
  expect(await memory.working.toContext({ sessionId: 's-alice-pad' })).toBe('');
  expect(await memory.working.toContext({ sessionId: 's-bob' })).toContain(BOB_NOTE);
  expect(await memory.working.toContext({ sessionId: 's-bob-pad' })).toContain(BOB_NOTE);
  expect(await memory.storage.getWorkingMemory('default', 's-alice', Date.now())).toBeUndefined();
}

describe('forget --user and working memory', () => {
  it('SQLite: the scratchpad goes with the user, and no byte of it stays in the files', async () => {
    const tm = await openTestMemory({ learn: { engine: { background: false } } });
    try {
      await populate(tm.memory);
      await forgetAlice(tm.memory);
      await tm.memory.close();
      const bytes = bytesUnder(tm.dir);
      expect(bytes.includes(Buffer.from('QUOKKA-7731'))).toBe(false);
      expect(bytes.includes(Buffer.from('WOMBAT-5520'))).toBe(false);
      expect(bytes.includes(Buffer.from('BILBY-4409'))).toBe(false);
      expect(bytes.includes(Buffer.from('NUMBAT-1188'))).toBe(true);
    } finally {
      await tm.cleanup();
    }
  });

  describe('PostgreSQL', async () => {
    const { skip } = await requireServer('forget --user on PostgreSQL');
    const schema = `forget_wm_${process.pid}`;
    afterAll(async () => {
      if (skip) return;
      const pool = adminPool();
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await pool.end();
    });
    it.skipIf(skip)('the scratchpad goes with the user; no row holds it', async () => {
      const storage = await openPostgresStorage({ url: SERVER_URL, schema, poolSize: 4 });
      const memory = await createMemory({ storage, embedder: sharedEmbedder(), reranker: createHeuristicReranker(), config: { retention: { sweepIntervalMinutes: 0 } } });
      try {
        await populate(memory);
        await forgetAlice(memory);
      } finally {
        await memory.close();
      }
      const pool = adminPool();
      try {
        const rows = (await pool.query(`SELECT session_id, state::text AS state FROM ${schema}.working_memory`)).rows as { session_id: string; state: string }[];
        // Besides Bob's scratchpad only the learner's own checkpoint row, and nothing of Alice in any row.
        expect(rows.map((r) => r.session_id).filter((s) => !s.startsWith('__')).sort()).toEqual(['s-bob', 's-bob-pad']);
        for (const r of rows) expect(r.state).not.toMatch(/QUOKKA|WOMBAT|BILBY/);
        const hits = await pool.query(`SELECT count(*)::int AS n FROM ${schema}.events e WHERE e::text LIKE '%WOMBAT-5520%'`);
        expect(hits.rows[0].n).toBe(0);
      } finally {
        await pool.end();
      }
    });
  });
});
