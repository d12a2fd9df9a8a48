/**
 * The synchronous runner of shared store steps (`../sql/program.ts`): every operation is answered at once by
 * better-sqlite3, so a write step runs inside one IMMEDIATE transaction as a single synchronous call.
 */
import type { StoreContext } from './context.js';
import { deleteDocsWhere, insertDoc, replaceDocOf } from './doc-store.js';
import { refreshFollowers } from './event-store.js';
import { runSync, type Op, type SqlRunner, type Step } from '../sql/program.js';

/** Answers one operation (inside the caller's transaction when it writes). */
export function sqliteAnswer(ctx: StoreContext): (op: Op) => unknown {
  return (op) => {
    switch (op.op) {
      case 'rows':
        return ctx.stmts.get(op.sql.text).all(...op.sql.params);
      case 'exec':
        return ctx.stmts.get(op.sql.text).run(...op.sql.params).changes;
      case 'lock':
        return undefined;
      case 'insertDocs':
        return op.docs.map((doc) => insertDoc(ctx, doc));
      case 'deleteDocs':
        return deleteDocsWhere(ctx, op.tenant, op.where);
      case 'replaceDoc':
        return replaceDocOf(ctx, op.tenant, op.kind, op.refId, op.doc);
      case 'refreshFollowers':
        return refreshFollowers(ctx, op.tenant, op.removed.map((r) => ({ session_id: r.session_id, seq: Number(r.seq) })));
    }
  };
}

/** Runs a step now, inside whatever transaction the caller holds. */
export const runStep = <T>(ctx: StoreContext, step: Step<T>): T => runSync(step, sqliteAnswer(ctx));

export function sqliteRunner(ctx: StoreContext): SqlRunner {
  const answer = sqliteAnswer(ctx);
  return {
    read: async (make) => runSync(make(), answer),
    write: async (_what, make, opts) => (opts?.relaxed ? ctx.writeRelaxed : ctx.write)(() => runSync(make(), answer)),
  };
}
