import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesFilter, parseFilter, type FilterNode } from '../../../core/filter.js';
import { docArb, filterArb } from '../../../testing/storage-filter-arbitraries.js';
import { openDatabase } from './connection.js';
import { compileFilter } from './filter-sql.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations.js';
import { DOC_COLUMNS, docParams, insertSql } from '../sql/rows.js';

function freshDb(): Database.Database {
  const db = openDatabase(':memory:', false);
  migrate(db, MIGRATIONS);
  return db;
}

function sqlMatches(db: Database.Database, filter: FilterNode): number[] {
  const where = compileFilter(filter, 'd');
  return db.prepare(`SELECT doc_id FROM docs d WHERE ${where.text} ORDER BY doc_id`).pluck().all(...where.params) as number[];
}

describe('compileFilter', () => {
  it('selects exactly the docs matchesFilter selects (random docs × random filter trees)', () => {
    const db = freshDb();
    const insert = db.prepare(insertSql('docs', DOC_COLUMNS).replace('engram.', ''));
    let nonTrivial = 0;
    fc.assert(
      fc.property(fc.array(docArb, { minLength: 1, maxLength: 25 }), filterArb, (docs, filter) => {
        db.exec('DELETE FROM docs');
        const ids = docs.map((d, i) => Number(insert.run(...docParams({ ...d, refId: `r${i}` })).lastInsertRowid));
        const expected = ids.filter((_, i) => matchesFilter({ ...docs[i]!, docId: ids[i]! }, filter));
        if (expected.length > 0 && expected.length < ids.length) nonTrivial++;
        expect(sqlMatches(db, filter)).toEqual(expected);
      }),
      { numRuns: 1500, seed: 7 },
    );
    // Many random filters select all or none of the docs; a run of all-or-nothing cases proves little.
    expect(nonTrivial).toBeGreaterThan(150);
  });

  it('compiles parsed user filters (the README examples) and binds values, never splicing them', () => {
    const db = freshDb();
    const filter = parseFilter({
      tags: ['policy', "prod'; DROP TABLE docs; --"],
      or: [{ type: 'tool_call' }, { importance: { gte: 0.7 } }],
      ts: { gte: '2025-09-20T00:00:00Z' },
      not: { source: { in: ['a.md', 'b.md'] } },
      task_type: 'general_knowledge',
    })!;
    const where = compileFilter(filter, 'd');
    expect(where.text).not.toContain('DROP');
    expect(where.params).toContain("prod'; DROP TABLE docs; --");
    expect(sqlMatches(db, filter)).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) FROM docs').pluck().get()).toBe(0);
  });

  it('refuses a metadata path segment that could escape the JSON path', () => {
    expect(() => compileFilter({ op: 'exists', field: { kind: 'meta', path: ['a"].b'] }, value: true })).toThrow(/not allowed/);
  });
});
