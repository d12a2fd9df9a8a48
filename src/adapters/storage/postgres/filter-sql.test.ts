import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Doc } from '../../../core/types.js';
import { matchesFilter, parseFilter, type FilterNode } from '../../../core/filter.js';
import { docArb, filterArb } from '../../../testing/storage-filter-arbitraries.js';
import { dropSchema, freshSchema, sharedPglite, sharedPglitePool } from '../../../../testing/postgres-pglite.js';
import { TEST_DIM, TEST_MODEL } from '../../../testing/storage-factories.js';
import { compileFilter } from './filter-sql.js';
import { openPostgresStorage, type PoolLike } from './index.js';
import { render, sql, type Sql } from './sql.js';

let pool: PoolLike;
const schema = freshSchema('filter');
const names = { schema };
const run = async (s: Sql) => {
  const { text, values } = render(s, names);
  return (await pool.query(text, values)).rows;
};

beforeAll(async () => {
  pool = await sharedPglitePool();
  const storage = await openPostgresStorage({ pool, schema });
  await storage.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
  await storage.close();
});
afterAll(async () => {
  await dropSchema(pool, schema);
  await (await sharedPglite()).close();
});

async function insertDocs(docs: readonly Omit<Doc, 'docId'>[]): Promise<number[]> {
  const ids: number[] = [];
  for (const [i, d] of docs.entries()) {
    const [row] = await run(
      sql(
        `INSERT INTO engram.docs (tenant, kind, ref_id, user_id, agent_id, session_id, task_id, text, ts, importance, type, actor, source,
           section, state_label, tags, pii, metadata, content_hash, confidence, tsv, tf, doc_len)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::text[], ?, ?::jsonb, ?, ?, ''::tsvector, '{}'::jsonb, 0) RETURNING doc_id`,
        d.tenant, d.kind, `r${i}`, d.userId ?? null, d.agentId ?? null, d.sessionId ?? null, d.taskId ?? null, d.text, d.ts,
        d.importance, d.type ?? null, d.actor ?? null, d.source ?? null, d.section ?? null, d.stateLabel ?? null, d.tags, d.pii,
        JSON.stringify(d.metadata), d.contentHash, d.confidence,
      ),
    );
    ids.push(Number((row as { doc_id: number | string }).doc_id));
  }
  return ids;
}

async function sqlMatches(filter: FilterNode): Promise<number[]> {
  const where = compileFilter(filter, 'd');
  const rows = await run({ text: `SELECT d.doc_id FROM engram.docs d WHERE ${where.text} ORDER BY d.doc_id`, params: where.params });
  return rows.map((r) => Number((r as { doc_id: number | string }).doc_id));
}

describe('compileFilter (PostgreSQL)', () => {
  it('selects exactly the docs matchesFilter selects (random docs × random filter trees)', async () => {
    let nonTrivial = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(docArb, { minLength: 1, maxLength: 20 }), fc.array(filterArb, { minLength: 5, maxLength: 5 }), async (docs, filters) => {
        await run(sql('DELETE FROM engram.docs'));
        const ids = await insertDocs(docs);
        for (const filter of filters) {
          const expected = ids.filter((_, i) => matchesFilter({ ...docs[i]!, docId: ids[i]! }, filter));
          if (expected.length > 0 && expected.length < ids.length) nonTrivial++;
          expect(await sqlMatches(filter)).toEqual(expected);
        }
      }),
      { numRuns: 250, seed: 7 },
    );
    // Many random filters select all or none of the docs; a run of all-or-nothing cases proves little.
    expect(nonTrivial).toBeGreaterThan(150);
  });

  it('orders strings as JavaScript does, astral characters included', async () => {
    await run(sql('DELETE FROM engram.docs'));
    const values = ['a', 'B', '\uFF5E', '\u{1F600}', '\u{10FFFF}', '\u{10FFFF}a', '\uE000', 'é', ''];
    const base = (await import('../../../testing/storage-factories.js')).NOW;
    const ids = await insertDocs(
      values.map((source) => ({
        tenant: 't', kind: 'event', refId: 'r', text: 'x', ts: base, importance: 0, tags: [], pii: false, metadata: { s: source },
        contentHash: 'h', confidence: 1, source,
      })),
    );
    for (const pivot of values) {
      for (const cmp of ['gt', 'gte', 'lt', 'lte'] as const) {
        const column: FilterNode = { op: 'cmp', field: { kind: 'column', name: 'source' }, cmp, value: pivot };
        const meta: FilterNode = { op: 'cmp', field: { kind: 'meta', path: ['s'] }, cmp, value: pivot };
        const js = (v: string) => (cmp === 'gt' ? v > pivot : cmp === 'gte' ? v >= pivot : cmp === 'lt' ? v < pivot : v <= pivot);
        const expected = ids.filter((_, i) => js(values[i]!));
        expect(await sqlMatches(column), `${cmp} ${JSON.stringify(pivot)}`).toEqual(expected);
        expect(await sqlMatches(meta), `meta ${cmp} ${JSON.stringify(pivot)}`).toEqual(expected);
      }
    }
  });

  it('binds values, never splicing them into the statement', async () => {
    const filter = parseFilter({
      tags: ['policy', "prod'; DROP TABLE docs; --"],
      or: [{ type: 'tool_call' }, { importance: { gte: 0.7 } }],
      not: { source: { in: ['a.md', 'b.md'] } },
      task_type: "x' OR '1'='1",
    })!;
    const where = compileFilter(filter, 'd');
    expect(where.text).not.toContain('DROP');
    expect(where.text).not.toContain("'1'='1");
    expect(where.params).toContain("prod'; DROP TABLE docs; --");
    expect(await sqlMatches(filter)).toEqual([]);
  });

  it('refuses a metadata path segment that could escape into the statement', () => {
    expect(() => compileFilter({ op: 'exists', field: { kind: 'meta', path: ["a' OR 1=1 --"] }, value: true })).toThrow(/not allowed/);
  });
});
