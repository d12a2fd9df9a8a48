/** Deletions that run inside a caller's write transaction (forget, sweep, deleteLinks). */
import type { Dialect } from '../dialect.js';
import { sql } from '../fragment.js';
import { exec, type Step } from '../program.js';

/** Links whose id, source or target is any of `ids`. */
export function* deleteLinksTouching(d: Dialect, tenant: string, ids: readonly string[]): Step<number> {
  if (ids.length === 0) return 0;
  const [a, b, c] = [d.inList('id', ids)[0]!, d.inList('from_id', ids)[0]!, d.inList('to_id', ids)[0]!];
  return yield* exec({
    text: `DELETE FROM engram.links WHERE tenant = ? AND (${a.text} OR ${b.text} OR ${c.text})`,
    params: [tenant, ...a.params, ...b.params, ...c.params],
  });
}

/** Vectors of these hashes that no doc references any more. */
export function* dropUnreferencedEmbeddings(d: Dialect, hashes: Iterable<string>): Step<number> {
  const list = [...new Set(hashes)];
  if (list.length === 0) return 0;
  const inList = d.inList('em.content_hash', list)[0]!;
  return yield* exec({
    text: `DELETE FROM engram.embeddings AS em WHERE ${inList.text}
       AND NOT EXISTS (SELECT 1 FROM engram.docs d WHERE d.content_hash = em.content_hash)`,
    params: inList.params,
  });
}

/** Every row of the tenant in `table`. */
export function* deleteAllOf(table: string, tenant: string): Step<number> {
  return yield* exec(sql(`DELETE FROM engram.${table} WHERE tenant = ?`, tenant));
}
