/**
 * The in-process search indexes of one tenant, the same for every SQL engine: BM25 over each doc's lexical
 * text (adapters/lexical) and, where the engine does not search vectors itself, a vector index
 * (adapters/vector), both answering only docs that pass the query's scope, kinds and expiry (checked in memory
 * per candidate through DocAttributes) and an optional SQL-computed allow-list for metadata filters. They are
 * derived state: each engine feeds them from its durable rows.
 */
import { queryTerms } from '../../lexical/analyzer.js';
import { Bm25Index } from '../../lexical/bm25-index.js';
import type { VectorIndex } from '../../../ports/vector-index.js';
import type { DocHit, DocQuery } from '../../../ports/storage.js';
import { DocAttributes, type DocAttrInput, type Interner } from './doc-attributes.js';
import { unit } from './vector-codec.js';

export interface AttrRow {
  kind: string;
  user_id: string | null;
  agent_id: string | null;
  session_id: string | null;
  task_id: string | null;
  expires_at: number | null;
}

/** The docs columns `attrsOf` reads (docs aliased `d`). */
export const ATTR_COLUMNS = 'd.kind, d.user_id, d.agent_id, d.session_id, d.task_id, d.expires_at';

export const attrsOf = (r: AttrRow): DocAttrInput => ({
  kind: r.kind,
  userId: r.user_id,
  agentId: r.agent_id,
  sessionId: r.session_id,
  taskId: r.task_id,
  expiresAt: r.expires_at,
});

/** Nearest docs by cosine among those passing the query (and `allowed`, when given). */
export function vectorHits(index: VectorIndex, attrs: DocAttributes, q: DocQuery & { vector: Float32Array }, allowed?: ReadonlySet<number>): DocHit[] {
  if (q.k <= 0) return [];
  const pred = attrs.compile(q.scope, q.kinds, q.now);
  if (!pred || index.size === 0) return [];
  const hits = index.search(unit(q.vector), q.k, { ...(allowed ? { allowed } : {}), accept: (id) => attrs.accepts(id, pred) });
  return hits.map((h) => ({ docId: h.id, score: h.score }));
}

/**
 * BM25 top k of the query's OR'ed terms, and each distinct term's best score among the docs passing the
 * query (Storage.lexicalSearchWithTermBest).
 */
export function lexicalHits(
  index: Bm25Index,
  attrs: DocAttributes,
  q: DocQuery & { text: string },
  allowed?: ReadonlySet<number>,
): { hits: DocHit[]; termBest: number[] } {
  const terms = queryTerms(q.text);
  const none = { hits: [], termBest: terms.map(() => 0) };
  if (q.k <= 0 || terms.length === 0) return none;
  const pred = attrs.compile(q.scope, q.kinds, q.now);
  if (!pred) return none;
  const { hits, termBest } = index.searchWithTermBest(terms, Math.floor(q.k), (id) => (!allowed || allowed.has(id)) && attrs.accepts(id, pred));
  return { hits: hits.map((h) => ({ docId: h.id, score: h.score })), termBest };
}

/** A tenant's lexical and (optional) vector index over one attribute table. */
export class TenantIndex {
  readonly attrs: DocAttributes;

  constructor(
    interner: Interner,
    readonly vectors: VectorIndex | undefined,
    private readonly dimension: number,
    /** Given when restored from a saved file. */
    public lexicon = new Bm25Index(),
  ) {
    this.attrs = new DocAttributes(interner);
  }

  /** Adds or replaces a doc: its lexical text, attributes and (when given and of the right size) its vector. */
  put(docId: number, lexical: string, attrs: DocAttrInput, vector: Float32Array | undefined): void {
    this.remove(docId);
    this.lexicon.add(docId, lexical);
    this.attrs.set(docId, attrs);
    if (this.vectors && vector && vector.length === this.dimension) this.vectors.add(docId, unit(vector));
  }

  remove(docId: number): void {
    this.lexicon.remove(docId);
    this.vectors?.remove(docId);
    this.attrs.delete(docId);
  }
}
