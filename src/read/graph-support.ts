/**
 * The memories that support graph hits join the ranked candidates (graph.ts finds the hits): getContext lifts
 * those of the relations the query asked for (`liftingHits`), search only those read in the direction the query
 * says (`withGraphCandidates`).
 */
import { eventToDoc } from '../core/docs.js';
import { matchesFilter, type FilterNode } from '../core/filter.js';
import { SCOPE_KEYS, type Doc, type DocKind } from '../core/types.js';
import type { ScopeFilter } from '../ports/storage.js';
import { graphRetrieve, type GraphHit } from './graph.js';
import type { TimeWindow } from './time-window.js';
import { atRelevance } from './score.js';
import type { Candidate, ReadDeps } from './types.js';

export interface SupportRequest {
  tenant: string;
  scope: ScopeFilter;
  filter?: FilterNode | undefined;
  kinds?: readonly DocKind[] | undefined;
  /** Events before this (the episodic TTL) stay out. */
  cutoff?: number | undefined;
  /** Scores a new candidate at a relevance (the caller's weights, route and time). */
  scoreNew: (c: Pick<Candidate, 'doc'>, relevance: number) => Candidate['scores'];
  /** Recomputes `final` at a new relevance. */
  rescore: (c: Candidate, relevance: number) => number;
  /** At most this many supporting memories join. */
  max?: number | undefined;
}

const docInScope = (doc: Pick<Doc, 'userId' | 'agentId' | 'sessionId' | 'taskId'>, scope: ScopeFilter) => SCOPE_KEYS.every((k) => scope[k] === undefined || doc[k] === scope[k]);

/**
 * The events supporting the strong hits, at the relevance of the best candidate (in the order of the hits): those
 * already ranked are lifted to it, the others are loaded and join. Returns the ranked list with them.
 */
export async function withGraphSupport(deps: ReadDeps, req: SupportRequest, ranked: readonly Candidate[], hits: readonly GraphHit[]): Promise<Candidate[]> {
  if (req.kinds && !req.kinds.includes('event')) return [...ranked];
  const top = Math.max(0, ...ranked.map((c) => c.scores.relevance ?? 0)) || 1;
  const wanted = new Map<string, number>();
  const precise = new Set<string>();
  for (const h of hits.filter((x) => x.strong)) {
    for (const id of h.relation.provenance.eventIds) {
      if (wanted.size >= (req.max ?? 5)) break;
      // Earlier (stronger) hits sit a hair above later ones.
      if (!wanted.has(id)) wanted.set(id, top * (1 - 0.01 * wanted.size));
      if (h.precise) precise.add(id);
    }
  }
  if (wanted.size === 0) return [...ranked];
  // Ahead of every other candidate, in the order of the hits: the graph read what the query asks.
  const bestFinal = Math.max(0, ...ranked.map((c) => c.scores.final));
  const order = [...wanted.keys()];
  // The lift is named in the breakdown (`graph`), so that its signals still account for the final score.
  const ahead = <S extends Candidate['scores']>(id: string, scores: S): S => {
    const final = precise.has(id) ? Math.max(scores.final, bestFinal + 0.001 * (order.length - order.indexOf(id))) : scores.final;
    return final > scores.final ? { ...scores, graph: final - scores.final, final } : scores;
  };
  const out = ranked.map((c) => {
    const lift = c.doc.kind === 'event' ? wanted.get(c.doc.refId) : undefined;
    if (lift === undefined) return c;
    const relevance = Math.max(c.scores.relevance ?? 0, lift);
    return { ...c, scores: ahead(c.doc.refId, atRelevance(c, relevance, req.rescore)) };
  });
  const present = new Set(ranked.filter((c) => c.doc.kind === 'event').map((c) => c.doc.refId));
  const missing = [...wanted.keys()].filter((id) => !present.has(id));
  if (missing.length > 0) {
    for (const e of await deps.storage.getEvents(req.tenant, missing)) {
      const doc = eventToDoc(e);
      if (!docInScope(doc, req.scope) || (req.cutoff !== undefined && doc.ts < req.cutoff) || !matchesFilter({ ...doc, docId: -1 } as Doc, req.filter)) continue;
      const scores = req.scoreNew({ doc }, wanted.get(e.id)!);
      out.push({ doc, origin: 'semantic', event: e, scores: ahead(e.id, scores) });
    }
  }
  return out.sort((a, b) => b.scores.final - a.scores.final);
}

/**
 * The hits whose supporting memories getContext lifts: those read in the direction the query says (and their
 * chains), and a strong relation matched by type alone (or joining two named entities) when it is the only strong
 * one of its type among the hits. One relation of the type asked about is the graph's answer ("Which company
 * employs Jonah?": his one `works_at`); several ("What does John love?" over a chatty person's five `likes`) leave
 * the choice to the query's other words, which search weighs. Every strong hit still shows in the Entities section.
 */
export function liftingHits(hits: readonly GraphHit[]): GraphHit[] {
  const undirected = new Map<string, number>();
  for (const h of hits) if (h.strong && !h.directed) undirected.set(h.relation.type, (undirected.get(h.relation.type) ?? 0) + 1);
  return hits.filter((h) => h.directed === true || (h.strong && undirected.get(h.relation.type) === 1));
}

/**
 * `search`'s graph step: the memories supporting the relations the query asks for by type and direction ("Alice's
 * manager", "who reports to Carol", and the chains they start) join the ranked list ahead of the rest, as
 * `withGraphSupport` does for getContext. Narrower than getContext's step: a relation that only matches a topic
 * word or joins two named people is left to word and vector search. The list comes back as it was when the query
 * names no stored entity or asks for no directed relation.
 */
export async function withGraphCandidates(
  deps: ReadDeps,
  req: SupportRequest & { query: string; timeWindow?: TimeWindow | null | undefined; validAt?: number | undefined },
  ranked: readonly Candidate[],
  /** The same request's `graphRetrieve`, when the caller started it earlier (it reads only the query). */
  retrieved?: Promise<GraphHit[]>,
): Promise<Candidate[]> {
  const hits = await (retrieved ?? graphRetrieve(deps.storage, { tenant: req.tenant, scope: req.scope, query: req.query, timeWindow: req.timeWindow, validAt: req.validAt }));
  const directed = hits.filter((h) => h.directed);
  if (directed.length === 0) return [...ranked];
  return withGraphSupport(deps, req, ranked, directed);
}
