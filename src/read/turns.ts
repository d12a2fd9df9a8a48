/**
 * Conversation structure on the read path (steps of expand.ts): what a memory states, what answers a
 * question, and what the same author said nearby. Each works on the event candidates whose events are loaded
 * and changes their relevance in place; `final` is recomputed with the caller's `rescore`.
 *
 *   information prior  relevance += w · min(0, ln(1 + stated) − ln(1 + reference))      w = 0.04, ref. 15
 *                      stated = words outside asking sentences (statements.ts). A memory that only asks
 *                      ("What did you paint?") or only reacts ("Wow, nice!") can hold little of an answer;
 *                      from `reference` stated words on there is no change, so long memories gain nothing.
 *   answers            the event right after an asking one in the same session gains
 *                      answerShare · questionShare(asker) · relevance(asker)                answerShare = 0.5
 *                      (its relevance after the time factor, before the prior). "What kind of
 *                      art do you make?" matches a question about art; the reply "Pottery, mostly." does not.
 *   same-author context  each event gains contextShare · Σ relevance of the events by the same author
 *                      (`name`, absent counts as one author) in the same session within `reach` positions
 *                      contextShare = 0.2, reach = 2 (relevance before this step). What a person says next to
 *                      their other relevant turns is likely on the same subject; in a two-person chat these are
 *                      the turns two before and after.
 * Adjacency is by timeline position: `seq` is contiguous per tenant, so `seq + 1` in the same session is the
 * next event written, with nothing between. Events of interleaved sessions are not adjacent this way (a
 * missed boost, never a wrong one).
 *
 * Measured (LoCoMo evidence R@10, categories 1–4, hybrid `search` asked for 10; dev conv-26/-30/-41, tuned
 * there; paraphrase-dev R@1 / R@5 beside): without these 0.743 (dev 0.771, held-out 0.734), paraphrase 0.467 /
 * 0.692; with them 0.765 (dev 0.789, held-out 0.757), paraphrase 0.475 / 0.700. Each step's share and the grids
 * are in docs/benchmarks.md. Cost: a sentence split per candidate text, ~20 µs the first time a text is seen and
 * memoised after (≤ ~1 ms a query for 50 unseen texts), and expand.ts loads 50 events instead of 20.
 */
import type { MemoryEvent } from '../core/types.js';
import { statementProfile } from './statements.js';
import { atRelevance } from './score.js';
import type { Candidate } from './types.js';

type Rescore = (c: Candidate, relevance: number) => number;

export interface InformationPriorSettings {
  informationWeight: number;
  informationReference: number;
}

/** The prior's shift for a memory's text (≤ 0). */
export function informationPrior(text: string, s: InformationPriorSettings): number {
  if (s.informationWeight === 0) return 0;
  return s.informationWeight * Math.min(0, Math.log1p(statementProfile(text).statedWords) - Math.log1p(s.informationReference));
}

/** Where each loaded event candidate sits: `session\0seq` → its index in `out`. */
export type TimelinePositions = ReadonlyMap<string, { index: number; event: MemoryEvent }>;

const key = (session: string, seq: number) => `${session}\0${seq}`;

export function timelinePositions(out: readonly Candidate[], known: ReadonlyMap<string, MemoryEvent>): TimelinePositions {
  const positions = new Map<string, { index: number; event: MemoryEvent }>();
  out.forEach((c, index) => {
    const event = c.doc.kind === 'event' ? known.get(c.doc.refId) : undefined;
    if (event?.sessionId) positions.set(key(event.sessionId, event.seq), { index, event });
  });
  return positions;
}

function raise(out: Candidate[], index: number, relevance: number, rescore: Rescore): void {
  const c = out[index]!;
  const capped = Math.min(1, relevance);
  out[index] = { ...c, scores: atRelevance(c, capped, rescore) };
}

/** Answers gain from the questions before them (see above); `asked`: event id → the asker's relevance. */
export function answerQuestions(out: Candidate[], positions: TimelinePositions, asked: ReadonlyMap<string, number>, share: number, rescore: Rescore): void {
  for (const { index, event } of positions.values()) {
    const relevance = asked.get(event.id) ?? 0;
    if (relevance <= 0) continue;
    const asks = statementProfile(out[index]!.doc.text).questionShare;
    const reply = asks > 0 ? positions.get(key(event.sessionId!, event.seq + 1)) : undefined;
    if (reply) raise(out, reply.index, (out[reply.index]!.scores.relevance ?? 0) + share * asks * relevance, rescore);
  }
}

/** Events gain from the same author's relevant events nearby (see above). */
export function sameAuthorContext(out: Candidate[], positions: TimelinePositions, share: number, reach: number, rescore: Rescore): void {
  const before = out.map((c) => c.scores.relevance ?? 0);
  for (const { index, event } of positions.values()) {
    let gain = 0;
    for (let d = -reach; d <= reach; d++) {
      const other = d === 0 ? undefined : positions.get(key(event.sessionId!, event.seq + d));
      if (other && other.event.name === event.name) gain += before[other.index]!;
    }
    if (gain > 0) raise(out, index, before[index]! + share * gain, rescore);
  }
}
