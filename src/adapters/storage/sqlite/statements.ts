import type { Statement } from 'better-sqlite3';
import type { Db } from './connection.js';

const ENGRAM_PREFIX = /\bengram\./g;

/**
 * Prepared statements by SQL text. Fixed statements stay hot; statements built from filters are few
 * distinct shapes in practice, and an LRU bound keeps a stream of ad-hoc filters from growing memory.
 */
export class StatementCache {
  private readonly cache = new Map<string, Statement>();

  constructor(
    private readonly db: Db,
    private readonly max = 500,
  ) {}

  get(text: string): Statement {
    const hit = this.cache.get(text);
    if (hit) {
      this.cache.delete(text);
      this.cache.set(text, hit);
      return hit;
    }
    // Shared statements name tables `engram.<table>` (sql/dialect.ts); one file is one schema here.
    const stmt = this.db.prepare(text.replace(ENGRAM_PREFIX, ''));
    this.cache.set(text, stmt);
    if (this.cache.size > this.max) this.cache.delete(this.cache.keys().next().value!);
    return stmt;
  }
}
