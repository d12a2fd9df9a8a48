/**
 * The asynchronous runner of shared store steps (`../sql/program.ts`): each operation is awaited on the
 * transaction's connection (writes) or the pool (reads); a write step is made afresh for every retry of its
 * transaction.
 */
import { EngramError } from '../../../core/errors.js';
import type { PgContext } from './context.js';
import type { Tx } from './db.js';
import { deleteDocsWhere, insertDocs, replaceDocOf } from './doc-store.js';
import { refreshFollowers } from './lexical-context.js';
import { runAsync, type Op, type SqlRunner, type Step } from '../sql/program.js';

/** Answers one operation on a write transaction. */
export function pgAnswer(ctx: PgContext, tx: Tx): (op: Op) => Promise<unknown> {
  return async (op) => {
    switch (op.op) {
      case 'rows':
        return tx.rows(op.sql);
      case 'exec':
        return tx.exec(op.sql);
      case 'lock':
        return tx.lockTenants(op.tenants);
      case 'insertDocs':
        return insertDocs(ctx, tx, op.docs);
      case 'deleteDocs':
        return deleteDocsWhere(tx, op.tenant, op.where);
      case 'replaceDoc':
        return replaceDocOf(ctx, tx, op.tenant, op.kind, op.refId, op.doc);
      case 'refreshFollowers':
        return refreshFollowers(tx, op.tenant, op.removed);
    }
  };
}

/** Runs a step inside the caller's transaction. */
export const runStep = <T>(ctx: PgContext, tx: Tx, step: Step<T>): Promise<T> => runAsync(step, pgAnswer(ctx, tx));

export function pgRunner(ctx: PgContext): SqlRunner {
  const readAnswer = async (op: Op): Promise<unknown> => {
    if (op.op === 'rows') return ctx.db.rows(op.sql);
    throw new EngramError('ADAPTER', `postgres storage: a read step asked for "${op.op}"`);
  };
  return {
    read: (make) => runAsync(make(), readAnswer),
    write: (what, make) => ctx.db.tx(what, (tx) => runStep(ctx, tx, make())),
  };
}
