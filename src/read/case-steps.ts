/**
 * The read path's steps over closed cases, in one place (context.ts calls them): the situation step
 * (situation.ts) — episodes whose situation contradicts what the query states fall behind, or are left out when
 * the best episode matches it — then the case step (cases.ts: superseded cases leave, look-alikes behind a case
 * that stands out count once, a recurring cause carries its count, a correction ranks above the case it
 * overturned, the cases a closer correction overturned leave), and after selection the notes naming what superseded
 * and overturned cases were left out (supersede.ts, overturned.ts).
 */
import { weighCases } from './cases.js';
import { DropLog, type CaseDrops } from './explain.js';
import { applySituation, dropContradicted, queryCues, situationCues } from './situation.js';
import { isClosedCase } from './standout.js';
import type { Candidate, ReadDeps } from './types.js';

export { overturnedNotes } from './overturned.js';
export { supersededNotes } from './supersede.js';

/** Whose memory, the query, and how `final` is recomputed at a scaled relevance (search.ts `rescorer`). */
export interface CaseRequest {
  tenant: string;
  query: string;
  rescore: (c: Candidate, relevance: number) => number;
  /** With `explain`, where each step records the candidates it left out (explain.ts). */
  drops?: CaseDrops | undefined;
}

const byFinal = (a: Candidate, b: Candidate) => b.scores.final - a.scores.final;

/** The situation step, then the case step; last among the candidate steps, so that episodes joining through hops and the graph are judged too. */
export async function judgeCases(deps: ReadDeps, req: CaseRequest, semantic: Candidate[]): Promise<Candidate[]> {
  return weighCases(deps, req.tenant, await matchSituations(deps, req, semantic), req.query, req.drops);
}

/**
 * Episodes that did not follow a change fall behind when the query says its trouble did, and so do episodes
 * whose trouble came and went when the query's happens every time, or the reverse; when the best episode matches
 * the query's situation, the contradicting ones are left out; a case whose cause was a change falls behind when
 * the query names no change and nothing of what that cause names (situation.ts).
 */
async function matchSituations(deps: ReadDeps, req: CaseRequest, semantic: Candidate[]): Promise<Candidate[]> {
  const query = queryCues(req.query);
  if (!query.change && !query.pattern && !query.words) return semantic;
  // A query that states nothing is read only against change-driven causes, which closed cases hold.
  const ids = semantic.filter((c) => (query.change || query.pattern ? c.doc.kind === 'episode' : isClosedCase(c))).map((c) => c.doc.refId);
  if (ids.length === 0) return semantic;
  const cues = await situationCues(deps, req.tenant, ids);
  const scaled = applySituation(semantic, cues, query, req.rescore).sort(byFinal);
  const kept = dropContradicted(scaled, cues, query);
  req.drops?.step('situation', scaled, DropLog.ids(kept));
  return kept;
}
