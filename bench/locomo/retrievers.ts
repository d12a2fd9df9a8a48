/** The retrievers compared side by side; each returns ranked dia ids (or memory ids) for a query. */
import type { Memory } from '../../src/index.js';
import type { Mem0Handle } from '../mem0/mem0.js';

export type Retriever = (query: string, tenant: string, k: number) => Promise<string[]>;

/** Ids in first-seen order: a turn imported in parts ranks once, at its best part. */
export const distinct = (ids: readonly (string | undefined)[]): string[] => [...new Set(ids.filter((x): x is string => x !== undefined))];

const idOf = (key: string) => (meta: Record<string, unknown>) => (typeof meta[key] === 'string' ? meta[key] : undefined);

/** `search` in one mode; reranking stays off for the single-signal modes so they measure that signal alone. */
export function searchRetriever(memory: Memory, mode: 'lexical' | 'vector' | 'hybrid', key: string): Retriever {
  const pick = idOf(key);
  return async (query, tenant, k) => {
    const hits = await memory.search({ query, k, mode, tenant, kinds: ['event'], rerank: mode === 'hybrid' });
    return distinct(hits.map((h) => pick(h.doc.metadata)));
  };
}

/**
 * The full `getContext` pipeline: its event items, in order. The episodic window is off (it returns the
 * latest turns whatever the question) and the budget is wide enough for k turns, so the cut is the pipeline's.
 * Like the `search` rows it asks for events only: by default a context also holds the episodes and facts the
 * store learned, which take slots of the k and are not evidence ids.
 */
export function contextRetriever(memory: Memory, idByEvent: ReadonlyMap<string, string>): Retriever {
  return async (query, tenant, k) => {
    const ctx = await memory.getContext(query, {
      tenant,
      episodic_window: { mode: 'none' },
      semantic_retrieval: { top_k: k, kinds: ['event'] },
      merge_policy: { token_budget: 200 * k },
    });
    return distinct(ctx.items.filter((i) => i.kind === 'event').map((i) => idByEvent.get(i.id)));
  };
}

/** Mem0 `search` with `filters.user_id` = the conversation; ids come back through the metadata we stored. */
export function mem0Retriever(handles: ReadonlyMap<string, Mem0Handle>, key: string): Retriever {
  const pick = idOf(key);
  return async (query, tenant, k) => {
    const h = handles.get(tenant);
    if (!h) return [];
    return distinct((await h.search(query, tenant, k)).map((x) => pick(x.metadata)));
  };
}
