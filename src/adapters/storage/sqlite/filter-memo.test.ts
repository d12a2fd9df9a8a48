import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeEvent, NOW, TEST_DIM, TEST_MODEL } from '../../../testing/storage-factories.js';
import type { FilterNode } from '../../../core/filter.js';
import { openSqliteStorage, type SqliteStorage } from './index.js';

/** Filtered lexical searches stay exact while their allow-list is remembered between calls. */
describe('sqlite filtered search allow-list memo', () => {
  let dir: string;
  let opened: SqliteStorage[];
  const open = async () => {
    const s = await openSqliteStorage({ path: join(dir, 'engram.db') });
    await s.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
    opened.push(s);
    return s;
  };
  const filter: FilterNode = { op: 'contains', field: { kind: 'column', name: 'tags' }, values: ['policy'], mode: 'all' };
  const refs = async (s: SqliteStorage, now = NOW) => {
    const hits = await s.lexicalSearch({ tenant: 'tenant-a', text: 'refund window', k: 50, filter, now });
    const docs = await s.getDocs('tenant-a', hits.map((h) => h.docId));
    return docs.map((d) => d.refId).sort();
  };
  const event = (id: string, tags: string[], extra: { expiresAt?: number } = {}) =>
    makeEvent({ id, tenant: 'tenant-a', content: `refund window note ${id}`, tags, ts: NOW - 1000, recordedAt: NOW - 999, ...extra });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-filter-memo-'));
    opened = [];
  });
  afterEach(async () => {
    for (const s of opened) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("sees this connection's writes, another connection's commits, expiry at search time, and forget", async () => {
    const a = await open();
    const b = await open();
    await a.appendEvents([event('e1', ['policy']), event('e2', ['other']), event('e3', ['policy'], { expiresAt: NOW + 60_000 })]);
    expect(await refs(a)).toEqual(['e1', 'e3']);
    expect(await refs(a)).toEqual(['e1', 'e3']); // the same filter again, from the memo

    await a.appendEvents([event('e4', ['policy'])]);
    expect(await refs(a)).toEqual(['e1', 'e3', 'e4']);

    await b.appendEvents([event('e5', ['policy'])]);
    expect(await refs(a)).toEqual(['e1', 'e3', 'e4', 'e5']);

    // e3 expires between two searches with the same filter.
    expect(await refs(a, NOW + 120_000)).toEqual(['e1', 'e4', 'e5']);

    await b.forget({ tenant: 'tenant-a', ids: ['e1'] }, NOW);
    expect(await refs(a)).toEqual(['e3', 'e4', 'e5']);
    await a.forget({ tenant: 'tenant-a', ids: ['e4'] }, NOW);
    expect(await refs(a)).toEqual(['e3', 'e5']);
  });
});
