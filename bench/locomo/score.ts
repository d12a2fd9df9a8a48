/**
 * Evidence recall as LoCoMo's `evaluation.py` defines it: the share of a question's evidence dia ids found
 * among the retrieved ids; hit@k is "at least one found"; session recall is the same at session granularity.
 */
import { sessionOf, type LocomoQuestion } from './dataset.js';

export interface Tally {
  n: number;
  recall: number;
  hit: number;
  sessionRecall: number;
}

export interface QuestionScore {
  recall: number;
  hit: number;
  sessionRecall: number;
}

/** Scores one question against ranked retrieved dia ids cut at k. Questions without evidence are not scorable. */
export function scoreQuestion(evidence: readonly string[], ranked: readonly string[], k: number): QuestionScore | undefined {
  if (evidence.length === 0) return undefined;
  const top = new Set(ranked.slice(0, k));
  const found = evidence.filter((e) => top.has(e)).length;
  const gold = new Set(evidence.map(sessionOf));
  const topSessions = new Set([...top].map(sessionOf));
  const sessionsFound = [...gold].filter((s) => topSessions.has(s)).length;
  return { recall: found / evidence.length, hit: found > 0 ? 1 : 0, sessionRecall: sessionsFound / gold.size };
}

/** Running means keyed by group (e.g. `all`, `cat1`, `dev`, `heldout`). */
export class Scoreboard {
  private readonly sums = new Map<string, Tally>();

  add(groups: readonly string[], s: QuestionScore): void {
    for (const g of groups) {
      const t = this.sums.get(g) ?? { n: 0, recall: 0, hit: 0, sessionRecall: 0 };
      t.n += 1;
      t.recall += s.recall;
      t.hit += s.hit;
      t.sessionRecall += s.sessionRecall;
      this.sums.set(g, t);
    }
  }

  /** Means per group, rounded to 3 digits. */
  means(): Record<string, Tally> {
    const out: Record<string, Tally> = {};
    for (const [g, t] of this.sums) {
      const r = (x: number) => Math.round((x / t.n) * 1000) / 1000;
      out[g] = { n: t.n, recall: r(t.recall), hit: r(t.hit), sessionRecall: r(t.sessionRecall) };
    }
    return out;
  }
}

/** The groups a question counts in: its category, and for categories 1–4 `all` plus its split. */
export function groupsOf(q: LocomoQuestion, split: 'dev' | 'heldout'): string[] {
  if (q.category === 5) return ['cat5'];
  return ['all', `cat${q.category}`, split];
}
