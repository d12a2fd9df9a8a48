/**
 * Retrieval of feedback examples similar to a new query (seed 003: a bi-encoder finds candidates, a
 * cross-encoder scores the best ones precisely).
 *
 *   candidates  the nearest example docs by vector and the best by BM25 (kind 'example', caller's scope)
 *   similarity  s = 0.8·max(0, cos(q, e)) + 0.2·dice(q, e)        with a query vector and the example's
 *               s = dice(q, e)                                     without one (embedder down, not yet indexed)
 *               dice = 2|Q ∩ E| / (|Q| + |E|) over content stems of the two queries
 *   gate        s ≥ minSimilarity
 *   order       by s, or with a reranker by 0.5·s + 0.5·rerank (rerank scores in 0..1 kept, others min-max'd)
 *
 * Unlike the read path's fusion (read/fuse.ts), which calibrates vector scores against the query's own
 * neighbourhood to rank among many memories, this needs an absolute gate: with three stored examples the
 * best one is still unrelated to most queries, and an unrelated example shown as "follow this" misleads the
 * next answer. The reranker orders but does not gate: a lexical reranker (the built-in heuristic one) scores
 * a paraphrase with other words low, and that must not hide it.
 */
import { exampleToDoc } from '../../core/docs-learn.js';
import type { Example, ExamplePolarity } from '../../core/types.js';
import type { ScopeFilter } from '../../ports/storage.js';
import { normaliseScores } from '../../read/rerank.js';
import { stemSet } from '../text.js';
import { cosine } from '../vector.js';
import type { LearnDeps } from './deps.js';

/**
 * Measured with the bundled USE-lite encoder (similar.test.ts's sets): paraphrases of a stored query score
 * s = 0.55–0.8 (cosine 0.56–0.89); unrelated requests that share only their phrasing ("how can I change my
 * password" against "how do I remove unused Docker images", cosine 0.59) stay below 0.5, topic-unrelated
 * ones below 0.35.
 */
export const DEFAULT_MIN_SIMILARITY = 0.5;
const VECTOR_WEIGHT = 0.8;
const RERANK_BLEND = 0.5;
const MIN_POOL = 20;

export interface SimilarExample {
  example: Example;
  /** Similarity in 0..1 (the gated score, before any reranking). */
  similarity: number;
  /** What the order is by: `similarity`, or its blend with the reranker's score. */
  rank: number;
  scores: { vector: number | null; lexical: number; rerank: number | null };
}

export interface SimilarExamples {
  positive: SimilarExample[];
  negative: SimilarExample[];
}

export interface SimilarRequest {
  tenant: string;
  scope: ScopeFilter;
  query: string;
  k: number;
  minSimilarity: number;
}

export function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size + b.size === 0) return 0;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return (2 * inter) / (a.size + b.size);
}

async function candidates(deps: LearnDeps, req: SimilarRequest, vector: Float32Array | undefined): Promise<Example[]> {
  const now = deps.clock.now();
  const base = { tenant: req.tenant, scope: req.scope, kinds: ['example' as const], k: Math.max(MIN_POOL, req.k * 8), now };
  const [byVector, byText] = await Promise.all([
    vector ? deps.storage.vectorSearch({ ...base, vector }) : Promise.resolve([]),
    deps.storage.lexicalSearch({ ...base, text: req.query }),
  ]);
  const docIds = [...new Set([...byVector, ...byText].map((h) => h.docId))];
  if (docIds.length === 0) return [];
  const docs = await deps.storage.getDocs(req.tenant, docIds);
  return deps.storage.getExamples(req.tenant, docs.filter((d) => d.kind === 'example').map((d) => d.refId));
}

async function score(deps: LearnDeps, req: SimilarRequest, examples: readonly Example[], vector: Float32Array | undefined): Promise<SimilarExample[]> {
  const queryStems = stemSet(req.query);
  const vectors = vector ? await deps.storage.getEmbeddings(examples.map((e) => docHashOf(e))) : new Map<string, Float32Array>();
  return examples.map((example): SimilarExample => {
    const lexical = dice(queryStems, stemSet(example.query));
    const v = vector ? vectors.get(docHashOf(example)) : undefined;
    const cos = v && vector ? Math.max(0, cosine(vector, v)) : null;
    const similarity = cos === null ? lexical : VECTOR_WEIGHT * cos + (1 - VECTOR_WEIGHT) * lexical;
    return { example, similarity, rank: similarity, scores: { vector: cos, lexical, rerank: null } };
  });
}

/** The cross-encoder step: reorders the examples that passed the gate. */
async function rerank(deps: LearnDeps, req: SimilarRequest, scored: SimilarExample[]): Promise<SimilarExample[]> {
  if (!deps.reranker || scored.length < 2) return scored;
  const replies = await deps.reranker.rerank(
    req.query,
    scored.map((s, i) => ({ id: String(i), text: s.example.query })),
  );
  const raw = new Map(replies.map((r) => [r.id, r.score]));
  const normalised = normaliseScores(scored.map((_, i) => raw.get(String(i)) ?? Number.NaN));
  return scored.map((s, i) => {
    const rerank = normalised[i]!;
    return { ...s, rank: (1 - RERANK_BLEND) * s.similarity + RERANK_BLEND * rerank, scores: { ...s.scores, rerank } };
  });
}

/** The example doc's own hash keys its vector (docs-learn.ts: an example's doc text is its query). */
function docHashOf(e: Example): string {
  return exampleToDoc(e).contentHash;
}

export async function findSimilarExamples(deps: LearnDeps, req: SimilarRequest): Promise<SimilarExamples> {
  const vector = await deps.embedQuery(req.query);
  const pool = await candidates(deps, req, vector);
  const similar = (await score(deps, req, pool, vector)).filter((s) => s.similarity >= req.minSimilarity);
  const ranked = (await rerank(deps, req, similar)).sort((a, b) => b.rank - a.rank || b.example.createdAt - a.example.createdAt);
  const take = (p: ExamplePolarity) => ranked.filter((s) => s.example.polarity === p).slice(0, req.k);
  return { positive: take('positive'), negative: take('negative') };
}
