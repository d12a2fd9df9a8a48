/**
 * Where a question's evidence is lost (bench/locomo/misses.ts): each evidence turn missing from the top 10 of a
 * ranking is classed by how far down it sits and whether it shares a content stem with the question (speaker names
 * left out, stems as learn/text.ts makes them):
 *   near         ranked 11–20: the right memory was found, and ordered below others;
 *   deep-shared  below 20 (or not retrieved), sharing a content word with the question;
 *   deep-gap     below 20, sharing none: the question names a class or a state ("activities", "relationship
 *                status") and the turn an instance ("swimming with the kids", "a single parent").
 * Losses count as recall, 1/|evidence| per turn, so that they add up to what R@10 lost.
 */
import { stemSet } from '../../src/learn/text.js';

export type MissClass = 'near' | 'deep-shared' | 'deep-gap';

export interface TurnInfo {
  speaker: string;
  text: string;
  session: number;
}

export interface QuestionMisses {
  /** Recall lost to each class (sums to 1 − R@10 for the question). */
  lost: Record<MissClass, number>;
  /** Distinct sessions among the top 10. */
  topSessions: number;
  /** When the question names exactly one speaker: how many of the top 10 that speaker wrote. */
  topByNamed?: number | undefined;
  /** When it names exactly one speaker: the share of the evidence that speaker wrote. */
  evidenceByNamed?: number | undefined;
}

/** Speakers of the conversation the question names (a whole-word, case-insensitive match). */
export function namedSpeakers(question: string, speakers: Iterable<string>): string[] {
  const q = ` ${question.toLowerCase().replace(/[^a-z0-9]+/g, ' ')} `;
  return [...new Set(speakers)].filter((s) => q.includes(` ${s.toLowerCase()} `));
}

export function classifyMisses(question: string, evidence: readonly string[], ranked: readonly string[], turns: ReadonlyMap<string, TurnInfo>): QuestionMisses {
  const speakers = new Set([...turns.values()].map((t) => t.speaker));
  const names = new Set([...speakers].flatMap((s) => [...stemSet(s)]));
  const asked = new Set([...stemSet(question)].filter((s) => !names.has(s)));
  const top = ranked.slice(0, 10);
  const lost: Record<MissClass, number> = { near: 0, 'deep-shared': 0, 'deep-gap': 0 };
  for (const e of evidence) {
    if (top.includes(e)) continue;
    const at = ranked.indexOf(e);
    const shares = [...stemSet(turns.get(e)?.text ?? '')].some((s) => asked.has(s));
    const cls: MissClass = at >= 10 && at < 20 ? 'near' : shares ? 'deep-shared' : 'deep-gap';
    lost[cls] += 1 / evidence.length;
  }
  const topSessions = new Set(top.flatMap((d) => turns.get(d)?.session ?? [])).size;
  const named = namedSpeakers(question, speakers);
  if (named.length !== 1) return { lost, topSessions };
  const by = (d: string) => turns.get(d)?.speaker === named[0];
  return { lost, topSessions, topByNamed: top.filter(by).length, evidenceByNamed: evidence.filter(by).length / Math.max(1, evidence.length) };
}

/**
 * Which signal holds a missed evidence turn, by its rank in each single-signal ranking (BM25, vector) against the
 * pool each index is asked for (pool.ts CALIBRATION_DEPTH, 80): `none` is in neither pool (not a candidate: no
 * fusion or later step can reach it), `lexical`/`vector` in one pool only, `both` in both. `top` says whether that
 * signal (the better one, for `both`) had it in its own top 10: evidence a signal ranks there and hybrid does not is
 * harm done after the signals (fusion or a later step).
 */
export type SignalClass = 'none' | 'lexical' | 'vector' | 'both';

export function signalClass(evidence: string, bm25: readonly string[], vector: readonly string[], pool = 80): { cls: SignalClass; top: boolean } {
  const at = (l: readonly string[]) => {
    const i = l.indexOf(evidence);
    return i < 0 || i >= pool ? Infinity : i;
  };
  const [b, v] = [at(bm25), at(vector)];
  const cls: SignalClass = b === Infinity ? (v === Infinity ? 'none' : 'vector') : v === Infinity ? 'lexical' : 'both';
  return { cls, top: Math.min(b, v) < 10 };
}
