/**
 * The counter-example slot (the prototype appended it as a sixth item that the formatter then cut): among the
 * episodes of the semantic pool, the best-scoring one whose outcome differs from the majority of the episodes
 * selected — a success among failures, or the reverse. It gets its own section and is admitted to the budget
 * before anything else, so it survives every budget that can hold it.
 *
 * It must still be about the query: relevance ≥ MIN_COUNTER_RELEVANCE. UNKNOWN outcomes never count.
 */
import type { Outcome } from '../core/types.js';
import type { Candidate } from './types.js';

export const MIN_COUNTER_RELEVANCE = 0.15;

const labelled = (c: Candidate): Outcome | undefined => {
  if (c.doc.kind !== 'episode') return undefined;
  const o = c.doc.type as Outcome | undefined;
  return o && o !== 'UNKNOWN' ? o : undefined;
};

/** The majority outcome of the selected episodes (ties: the outcome of the best-scored one). */
export function majorityOutcome(selected: readonly Candidate[]): Outcome | undefined {
  const counts = new Map<Outcome, { n: number; best: number }>();
  for (const c of selected) {
    const o = labelled(c);
    if (!o) continue;
    const cur = counts.get(o) ?? { n: 0, best: -Infinity };
    counts.set(o, { n: cur.n + 1, best: Math.max(cur.best, c.scores.final) });
  }
  let out: Outcome | undefined;
  let key: [number, number] = [0, -Infinity];
  for (const [o, { n, best }] of counts) {
    if (n > key[0] || (n === key[0] && best > key[1])) {
      out = o;
      key = [n, best];
    }
  }
  return out;
}

export function pickCounterExample(selected: readonly Candidate[], pool: readonly Candidate[]): Candidate | undefined {
  const majority = majorityOutcome(selected);
  if (!majority) return undefined;
  // The best selected item is the answer, not a counter-example: moving it into the counter-example section
  // would put the most relevant memory last.
  const top = selected.reduce<Candidate | undefined>((b, c) => (!b || c.scores.final > b.scores.final ? c : b), undefined);
  let best: Candidate | undefined;
  for (const c of pool) {
    const o = labelled(c);
    if (c === top || (top && c.doc.refId === top.doc.refId && c.doc.kind === top.doc.kind)) continue;
    if (!o || o === majority || (c.scores.relevance ?? 0) < MIN_COUNTER_RELEVANCE) continue;
    if (!best || c.scores.final > best.scores.final) best = c;
  }
  return best;
}
