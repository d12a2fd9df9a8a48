/**
 * Retired learned rules at the store's query (docs/learning.md, "Retirement"). Retiring a rule ends its lineage
 * with a closing version valid from and to one moment (learn/engine/retire.ts), whose `metadata.retired` records
 * why. That version's doc stays in the retrieval projection: a read as of an earlier time finds the lineage by it
 * and serves the version that held then (time-travel.ts). A read of now leaves those docs out in the store's query
 * itself, before each index's pool is cut: filtered only after retrieval (by `validity`), a closing version took a
 * pool slot, and a place in its signals' calibration heads, from a live memory. The filter language is the one
 * every adapter compiles (core/filter.ts), so every adapter leaves them out alike.
 */
import type { FilterNode } from '../core/filter.js';
import type { DocKind } from '../core/types.js';
import type { Storage } from '../ports/storage.js';
import type { ScopeFilter } from '../ports/storage.js';
import { isTimed, type ReadTime } from './time-travel.js';

/** A retired rule's closing version: a fact whose metadata says why it was retired (`retired.reason`). */
export const RETIRED: FilterNode = {
  op: 'and',
  children: [
    { op: 'cmp', field: { kind: 'column', name: 'kind' }, cmp: 'eq', value: 'fact' },
    { op: 'exists', field: { kind: 'meta', path: ['retired', 'reason'] }, value: true },
  ],
};

const NOT_RETIRED: FilterNode = { op: 'not', child: RETIRED };

/** `filter` narrowed to leave retired rules out, for a read of now; a read at a time (`asOf`, `knownAt`) keeps them. */
export function withoutRetired(filter: FilterNode | undefined, t: ReadTime): FilterNode | undefined {
  if (isTimed(t)) return filter;
  return filter ? { op: 'and', children: [filter, NOT_RETIRED] } : NOT_RETIRED;
}

export interface RetiredQuery {
  tenant: string;
  scope?: ScopeFilter | undefined;
  kinds?: DocKind[] | undefined;
  /** The read's own filter (without the retired rules' exclusion). */
  filter?: FilterNode | undefined;
  text: string;
  k: number;
  now: number;
}

/**
 * For `explain`: the retired rules the query's words find (a lexical search among them alone), so that a read of
 * now can still say why one is absent (`validity`). It reads only the explanation: the candidates never held them.
 */
export async function retiredMatches(storage: Storage, q: RetiredQuery) {
  const filter: FilterNode = q.filter ? { op: 'and', children: [q.filter, RETIRED] } : RETIRED;
  const hits = await storage.lexicalSearch({ tenant: q.tenant, ...(q.scope ? { scope: q.scope } : {}), ...(q.kinds ? { kinds: q.kinds } : {}), filter, k: q.k, now: q.now, text: q.text });
  return hits.length > 0 ? storage.getDocs(q.tenant, hits.map((h) => h.docId)) : [];
}
