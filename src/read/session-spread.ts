/**
 * Session spread (hybrid `search`, conversational stores). A question that gathers ("What instruments does she
 * play?", "What have they both done?") is answered by turns from several sessions, while the session neighbours
 * (expand.ts) fill the top of the list from the seeds' sessions. For such a question `search` takes no session
 * neighbours, and past the first `cap` events of one session in the ranking, further events of that session move
 * after the others (in their order); events without a session and other kinds keep their place among the kept
 * ones. Other questions are left as they are. `getContext` does the same (context.ts): such events are marked
 * `behind` and are picked, and rendered, after the others.
 *
 * Chosen on LoCoMo's dev split; the figures and the variants tried are in docs/benchmarks.md ("Hybrid search: a
 * gathering question spreads across sessions").
 */
import { words } from './text.js';
import type { Candidate } from './types.js';

/** Events of one session kept in place before the rest of that session moves down (see docs/benchmarks.md). */
export const SESSION_CAP = 4;

const NOT_A_PLURAL = new Set(['is', 'was', 'does', 'has', 'this', 'his', 'its', 'thus', 'plus', 'always', 'perhaps']);
const STOPS = new Set(['do', 'did', 'are', 'were', 'have', 'had', 'of', 'the', 'a', 'an', 'kind', 'type', 'sort', 'would', 'might', 'could', 'should', 'can', 'will']);

/**
 * Whether the question gathers: it names what it asks about in the plural right after "what"/"which" ("what
 * activities", "which martial arts"), or asks what two share ("both", "in common").
 */
export function gathersAcrossSessions(query: string): boolean {
  const w = words(query);
  for (let i = 0; i < w.length; i++) {
    if (w[i] === 'both' || (w[i] === 'in' && w[i + 1] === 'common')) return true;
  }
  if (w[0] !== 'what' && w[0] !== 'which') return false;
  for (const t of w.slice(1, 3)) {
    if (STOPS.has(t) || NOT_A_PLURAL.has(t)) return false;
    if (t.length > 3 && t.endsWith('s') && !t.endsWith('ss') && !t.endsWith('us')) return true;
  }
  return false;
}

/** The first `cap` events of each session in place, that session's further events after everything else. */
export function spreadSessions<C extends Candidate>(ranked: readonly C[], cap: number): C[] {
  const moved = pastSessionCap(ranked, cap);
  return moved.size === 0 ? [...ranked] : [...ranked.filter((c) => !moved.has(c)), ...ranked.filter((c) => moved.has(c))];
}

/** The events `spreadSessions` moves: each past the first `cap` events of its session in `ranked`. */
export function pastSessionCap<C extends Candidate>(ranked: readonly C[], cap: number): Set<C> {
  const seen = new Map<string, number>();
  const moved = new Set<C>();
  for (const c of ranked) {
    const session = c.doc.kind === 'event' ? c.doc.sessionId : undefined;
    if (!session) continue;
    const n = seen.get(session) ?? 0;
    seen.set(session, n + 1);
    if (n >= cap) moved.add(c);
  }
  return moved;
}
