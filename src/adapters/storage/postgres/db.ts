/**
 * Statements and transactions over a `PoolLike`. A write transaction also keeps each touched tenant's
 * state row (`tenant_state`: last seq, doc count and length for BM25, vector epoch) in step: the deltas
 * are collected while it runs and written in one statement before COMMIT, tenants in sorted order so two
 * transactions never wait on each other's tenant rows in opposite orders.
 */
import { isRetryable, toEngramError } from './errors.js';
import type { ClientLike, PoolLike, QueryResultLike } from './pool.js';
import { render, sql, type Sql, type SqlNames } from './sql.js';

/** A doc that became vector-searchable (or may have), for the in-process index of the fallback. */
export interface AddedDoc {
  docId: number;
  contentHash: string;
  kind: string;
  userId: string | null;
  agentId: string | null;
  sessionId: string | null;
  taskId: string | null;
  expiresAt: number | null;
  /** The vector for the searching model; null when its text has none; undefined when not known. */
  vector: Float32Array | null | undefined;
}

export interface TenantChanges {
  added: AddedDoc[];
  removed: number[];
  /** Docs whose lexical context was derived again (their index entry must be rebuilt). */
  touched: number[];
  /** False when the writer could not list every change (an in-process index must then reload). */
  complete: boolean;
}

/** What a committed write transaction changed, per tenant, with the tenant's vector epoch after it. */
export interface CommitInfo {
  epochs: Map<string, number>;
  changes: Map<string, TenantChanges>;
}

interface TenantDelta {
  docs: number;
  len: number;
  lastSeq: number;
}

const MAX_ATTEMPTS = 6;

let writesCommitted = 0;
/** Write transactions committed by any storage of this process so far (a shared epoch read must not span one). */
export const committedWrites = (): number => writesCommitted;

async function run(q: { query: PoolLike['query'] }, s: Sql, names: SqlNames): Promise<QueryResultLike> {
  const { text, values } = render(s, names);
  return q.query(text, values);
}

/** A string literal that reads the same whatever `standard_conforming_strings` says (pg's escapeLiteral). */
export function quoteLiteral(s: string): string {
  const body = s.replace(/'/g, "''");
  return s.includes('\\') ? ` E'${body.replace(/\\/g, '\\\\')}'` : `'${body}'`;
}

/** The last result of a text that may have held several statements (pg answers those with an array). */
const lastResult = (r: QueryResultLike | QueryResultLike[]): QueryResultLike => (Array.isArray(r) ? (r.at(-1) ?? { rows: [] }) : r);

export class Tx {
  private readonly deltas = new Map<string, TenantDelta>();
  readonly changes = new Map<string, TenantChanges>();

  /**
   * @param begin the BEGIN statement not yet sent: it goes with the transaction's first statement, in the same
   * round trip when that statement is the tenant lock (a write's usual first step), else just before it.
   */
  constructor(
    private readonly client: ClientLike,
    readonly names: SqlNames,
    private begin: string | undefined = undefined,
  ) {}

  /** True once BEGIN was sent (the transaction then needs its COMMIT or ROLLBACK). */
  get begun(): boolean {
    return this.begin === undefined;
  }

  private async send(s: Sql): Promise<QueryResultLike> {
    if (this.begin !== undefined) {
      const begin = this.begin;
      this.begin = undefined;
      await this.client.query(begin);
    }
    return run(this.client, s, this.names);
  }

  async rows<R>(s: Sql): Promise<R[]> {
    return (await this.send(s)).rows as R[];
  }

  async one<R>(s: Sql): Promise<R | undefined> {
    return (await this.rows<R>(s))[0];
  }

  /** Runs a statement, returning the number of rows it affected. */
  async exec(s: Sql): Promise<number> {
    return (await this.send(s)).rowCount ?? 0;
  }

  /**
   * Locks the tenants' state rows (creating them), in sorted order, and returns each one's last seq.
   * Every write transaction of a tenant takes this lock first, so a tenant's writes apply one at a time
   * (as in SQLite) while other tenants' writes proceed in parallel.
   */
  async lockTenants(tenants: Iterable<string>): Promise<Map<string, number>> {
    const list = [...new Set(tenants)].sort();
    const out = new Map<string, number>();
    if (list.length === 0) return out;
    const lock = sql(
      `INSERT INTO engram.tenant_state AS s (tenant) SELECT t FROM unnest(?::text[]) AS u(t) ORDER BY t
         ON CONFLICT (tenant) DO UPDATE SET last_seq = s.last_seq RETURNING tenant, last_seq`,
      list,
    );
    let rows: { tenant: string; last_seq: string | number }[];
    if (this.begin !== undefined) {
      // BEGIN and the lock in one round trip. A text of two statements cannot have parameters, so this one
      // statement carries its values as quoted literals, put in place of `$1` after rendering (nothing else
      // ever reads them as SQL text).
      const tenantArray = `ARRAY[${list.map(quoteLiteral).join(', ')}]`;
      const text = `${this.begin}; ${render(lock, this.names).text.replace('$1', () => tenantArray)}`;
      this.begin = undefined;
      rows = lastResult((await this.client.query(text)) as QueryResultLike | QueryResultLike[]).rows as typeof rows;
    } else rows = await this.rows(lock);
    for (const r of rows) out.set(r.tenant, Number(r.last_seq));
    for (const t of list) this.delta(t);
    return out;
  }

  private delta(tenant: string): TenantDelta {
    let d = this.deltas.get(tenant);
    if (!d) {
      d = { docs: 0, len: 0, lastSeq: 0 };
      this.deltas.set(tenant, d);
    }
    return d;
  }

  private tenantChanges(tenant: string): TenantChanges {
    let c = this.changes.get(tenant);
    if (!c) {
      c = { added: [], removed: [], touched: [], complete: true };
      this.changes.set(tenant, c);
    }
    return c;
  }

  docsAdded(tenant: string, docs: readonly (AddedDoc & { len: number })[]): void {
    const d = this.delta(tenant);
    for (const doc of docs) {
      d.docs += 1;
      d.len += doc.len;
      const { len: _len, ...added } = doc;
      this.tenantChanges(tenant).added.push(added);
    }
  }

  docsRemoved(tenant: string, docs: readonly { docId: number; len: number }[]): void {
    const d = this.delta(tenant);
    for (const doc of docs) {
      d.docs -= 1;
      d.len -= doc.len;
      this.tenantChanges(tenant).removed.push(doc.docId);
    }
  }

  /** A doc's indexed length changed (its lexical context was derived again). */
  docLengthChanged(tenant: string, docId: number, delta: number): void {
    this.delta(tenant).len += delta;
    this.tenantChanges(tenant).touched.push(docId);
  }

  /** Vectors arrived for docs of this tenant (bumps its epoch without changing counts); `docs` undefined: not listed. */
  vectorsAdded(tenant: string, docs: readonly AddedDoc[] | undefined): void {
    this.delta(tenant);
    const c = this.tenantChanges(tenant);
    if (docs) c.added.push(...docs);
    else c.complete = false;
  }

  setLastSeq(tenant: string, seq: number): void {
    const d = this.delta(tenant);
    d.lastSeq = Math.max(d.lastSeq, seq);
  }

  /**
   * Writes the collected tenant deltas (tenants sorted; their state rows stay locked until commit) and this
   * transaction's doc changes to the feed, each under its tenant's new epoch, in one statement. Returns the new
   * epochs.
   */
  async flush(): Promise<Map<string, number>> {
    const epochs = new Map<string, number>();
    if (this.deltas.size === 0) return epochs;
    const tenants = [...this.deltas.keys()].sort();
    const ds = tenants.map((t) => this.deltas.get(t)!);
    const feed = this.feedRows();
    // One statement: the state rows, then the feed rows under the epochs they were just given.
    const rows = await this.rows<{ tenant: string; vector_epoch: string | number }>(
      sql(
        `WITH st AS (
           INSERT INTO engram.tenant_state AS s (tenant, last_seq, doc_count, doc_len, vector_epoch)
           SELECT t, q, c, l, 1 FROM unnest(?::text[], ?::bigint[], ?::bigint[], ?::bigint[]) AS u(t, q, c, l) ORDER BY t
           ON CONFLICT (tenant) DO UPDATE SET last_seq = GREATEST(s.last_seq, excluded.last_seq),
             doc_count = s.doc_count + excluded.doc_count, doc_len = s.doc_len + excluded.doc_len,
             vector_epoch = s.vector_epoch + 1
           RETURNING tenant, vector_epoch),
         f AS (
           INSERT INTO engram.doc_changes (tenant, epoch, doc_id, removed)
           SELECT u.t, st.vector_epoch, u.d, u.r FROM unnest(?::text[], ?::bigint[], ?::boolean[]) AS u(t, d, r) JOIN st ON st.tenant = u.t)
         SELECT tenant, vector_epoch FROM st`,
        tenants,
        ds.map((d) => d.lastSeq),
        ds.map((d) => d.docs),
        ds.map((d) => d.len),
        feed.tenants,
        feed.docIds,
        feed.removed,
      ),
    );
    for (const r of rows) epochs.set(r.tenant, Number(r.vector_epoch));
    return epochs;
  }

  /** The feed rows of this transaction: doc 0 asks readers to reload a tenant whose changes were not all listed. */
  private feedRows(): { tenants: string[]; docIds: number[]; removed: boolean[] } {
    const out = { tenants: [] as string[], docIds: [] as number[], removed: [] as boolean[] };
    const push = (tenant: string, docId: number, gone: boolean) => {
      out.tenants.push(tenant);
      out.docIds.push(docId);
      out.removed.push(gone);
    };
    for (const [tenant, c] of this.changes) {
      if (!this.deltas.has(tenant)) continue;
      if (!c.complete) push(tenant, 0, false);
      for (const id of c.removed) push(tenant, id, true);
      for (const d of c.added) push(tenant, d.docId, false);
      for (const id of c.touched) push(tenant, id, false);
    }
    return out;
  }
}

export interface TxOptions {
  readOnly?: boolean;
  /** REPEATABLE READ: one snapshot for every statement of the transaction. */
  snapshot?: boolean;
}

export class PgDb {
  constructor(
    readonly pool: PoolLike,
    readonly names: SqlNames,
    private readonly onCommit?: (info: CommitInfo) => void,
  ) {}

  async rows<R>(s: Sql): Promise<R[]> {
    return (await run(this.pool, s, this.names)).rows as R[];
  }

  async one<R>(s: Sql): Promise<R | undefined> {
    return (await this.rows<R>(s))[0];
  }

  /**
   * Runs `fn` in one transaction on one connection, committing its tenant deltas with it. Serialization
   * failures and deadlocks (possible when tenants' rows are locked by other writers) are retried with a
   * fresh transaction; any other failure rolls back and is rethrown as an EngramError.
   */
  async tx<T>(what: string, fn: (tx: Tx) => Promise<T>, opts: TxOptions = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let client: ClientLike;
      try {
        client = await this.pool.connect();
      } catch (e) {
        throw toEngramError(`postgres storage: ${what}`, e);
      }
      const mode = `${opts.snapshot ? ' ISOLATION LEVEL REPEATABLE READ' : ''}${opts.readOnly ? ' READ ONLY' : ''}`;
      const tx = new Tx(client, this.names, `BEGIN${mode}`);
      let broken: Error | undefined;
      try {
        const result = await fn(tx);
        const epochs = opts.readOnly ? new Map<string, number>() : await tx.flush();
        // A transaction that sent nothing has nothing to commit.
        if (tx.begun) await client.query('COMMIT');
        if (!opts.readOnly) writesCommitted++;
        if (epochs.size > 0) this.onCommit?.({ epochs, changes: tx.changes });
        return result;
      } catch (e) {
        try {
          if (tx.begun) await client.query('ROLLBACK');
        } catch (rollbackError) {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        }
        if (isRetryable(e) && attempt < MAX_ATTEMPTS) {
          await new Promise((ok) => setTimeout(ok, Math.random() * 20 * attempt));
          continue;
        }
        throw toEngramError(`postgres storage: ${what}`, e);
      } finally {
        client.release(broken);
      }
    }
  }
}
