/**
 * The decision procedure both agents share: case-based reasoning over retrieved memory.
 *
 *  1. Score each precedent: how alike its situation is to the report (embedding cosine, rescaled; for a fact,
 *     also how much of its condition the report meets) × how well their circumstances fit (circumstances.ts)
 *     × how reliable its cause is (a known outcome; established by a correction) × its confidence and support.
 *  2. Vote: every precedent's cause collects the scores of all precedents whose causes are like it (one cause
 *     seen in several similar cases outweighs a single case); causes that a fitting precedent's correction
 *     names as the mistake ("it was A, not M": causes closer to M than to A) lose that precedent's score,
 *     and so do the causes like them.
 *  3. When no precedent's situation is close enough (the best net vote is weak), decide by recurrence
 *     in memory: a cause that recurred in at least two retrieved cases whose circumstances all fit the report,
 *     and holds a majority of their weight (outcome, correction, confidence — similarity set aside). A cause
 *     seen again and again across unrelated situations of one environment is the first thing to rule out
 *     when nothing closer is known; a single case is no recurrence.
 *  4. Resort to a documented prior (priors.ts) when nothing fits: no precedent, no recurring cause, or the
 *     report states a circumstance (e.g. "right after a change") that no precedent shares.
 *  5. When the winning cause does not itself speak to a circumstance the report states (a precedent from
 *     another system whose cause names its own specifics only), the decision adds that circumstance's checks
 *     from the priors: the precedent says which kind of case this is, the prior says what to check for it.
 * The output names the precedent or prior it used. No word of any particular domain appears here.
 */
import { circumstanceFit, circumstancesOf, type Circumstances, type CircumstanceFit } from './circumstances.js';
import type { Precedent } from './precedents.js';
import { GENERAL_PRIOR, PRIORS, priorById, type Prior } from './priors.js';
import { coverage, leadLikeness, lexicalLikeness, rescale, stemsContained, VectorMemo, type EmbedFn } from './similarity.js';

export interface ScoredPrecedent {
  precedent: Precedent;
  /** Situation likeness, 0..1. */
  similarity: number;
  fit: CircumstanceFit;
  reliability: number;
  trust: number;
  score: number;
}

export interface CauseVote {
  cause: string;
  /** The precedent whose cause this is. */
  precedentId: string;
  support: number;
  against: number;
  net: number;
  /** Precedents that voted for it with at least half their score. */
  agreeing: string[];
}

export type DecisionBasis =
  | {
      kind: 'precedent';
      precedentId: string;
      label: string;
      source: Precedent['source'];
      score: number;
      agreeing: number;
      /** `similarity`: the vote over similar cases decided; `recurrence`: the cause recurring in memory did. */
      via: 'similarity' | 'recurrence';
    }
  | { kind: 'prior'; priorId: string; situation: string; why: string };

export interface Decision {
  /** One line, "Investigate: …": what the score reads. */
  text: string;
  /** Which precedent or prior decided, and why. */
  reason: string;
  basis: DecisionBasis;
  /** The best few votes, for the report. */
  votes: CauseVote[];
  precedents: ScoredPrecedent[];
}

export interface DecideOptions {
  /** Below this net vote the best precedent is too weak to trust and a prior decides. */
  minSupport?: number;
}

/** Sentence-encoder cosine of unrelated texts (similarity.ts explains the rescaling). */
const SITUATION_FLOOR = 0.3;
/** Causes must be near paraphrases to merge their votes by embedding alone. */
const CAUSE_FLOOR = 0.55;
/**
 * "It was A, not M": a cause counts as M when it contains M's words, or when M's embedding is closer to it than
 * to A by this margin (at its maximum when the gap is twice the margin). Contrastive, so the encoder's baseline
 * cancels out.
 */
const MISTAKE_MARGIN = 0.075;
const CORRECTED_BONUS = 1.25;
const UNLABELLED_RELIABILITY = 0.8;
const DEFAULT_MIN_SUPPORT = 0.12;
const NEAR_TIE = 0.9;
/** Recurrence names a cause only when it recurred (this many cases agree) and holds this share of the weight. */
const RECURRENCE_MIN_CASES = 2;
const RECURRENCE_MIN_SHARE = 0.5;

export async function decide(report: string, precedents: readonly Precedent[], embed: EmbedFn, opts: DecideOptions = {}): Promise<Decision> {
  const reportCirc = circumstancesOf(report);
  if (precedents.length === 0) return priorDecision(reportCirc, 'memory returned no precedent with a known cause', [], []);

  const vectors = new VectorMemo(embed);
  await vectors.prepare([report, ...precedents.flatMap((p) => [p.situation, p.cause, ...p.mistaken])]);
  const scored = precedents.map((p) => scorePrecedent(report, reportCirc, p, vectors)).sort((a, b) => b.score - a.score);

  const unshared = inListSequence(reportCirc.stated).filter((c) => !scored.some((s) => circumstancesOf(s.precedent.situation).stated.has(c)));
  if (unshared.length > 0) {
    const prior = priorById(unshared[0]!);
    return priorDecision(reportCirc, `the report states a circumstance no precedent shares (${prior.id})`, [], scored, prior);
  }

  const votes = vote(scored, vectors);
  const top = votes[0];
  if (!top || top.net < (opts.minSupport ?? DEFAULT_MIN_SUPPORT)) {
    const weak = `no precedent fits well enough (best net vote ${(top?.net ?? 0).toFixed(2)})`;
    const recurring = recurrence(scored, vectors);
    if (!recurring) return priorDecision(reportCirc, `${weak}, and no cause recurs in memory`, votes, scored);
    const share = `${recurring.cases} of ${recurring.of} fitting cases, ${(recurring.share * 100).toFixed(0)}% of their weight`;
    return precedentDecision(reportCirc, recurring.vote, scored, votes, 'recurrence', `recurrence: ${weak}, but its cause recurs in memory (${share})`);
  }
  return precedentDecision(reportCirc, closestAmongLeaders(votes, scored), scored, votes, 'similarity');
}

/**
 * How many closed cases a precedent stands for: a fact, its supporting episodes; a case with a known outcome,
 * one; a statement without an outcome (a correction line on its own), none — it restates a case counted
 * elsewhere, and raw text cannot tell which.
 */
function closedCases(p: Precedent | undefined): number {
  if (!p) return 0;
  if (p.source === 'fact') return p.support;
  return p.outcome === null ? 0 : 1;
}

function precedentDecision(
  reportCirc: Circumstances,
  best: CauseVote,
  scored: readonly ScoredPrecedent[],
  votes: readonly CauseVote[],
  via: 'similarity' | 'recurrence',
  why?: string,
): Decision {
  const winner = scored.find((s) => s.precedent.id === best.precedentId)!;
  const p = winner.precedent;
  const others = best.agreeing.length - 1;
  const unspoken = inListSequence(reportCirc.stated).find((c) => !circumstancesOf(p.cause).stated.has(c));
  const checks = unspoken ? priorById(unspoken) : undefined;
  const reason =
    `precedent ${p.label}${why ? ` by ${why}` : ''}: situation similarity ${winner.similarity.toFixed(2)}, fit ${winner.fit.factor.toFixed(2)}` +
    `${p.corrected ? ', cause established by a correction' : ''}` +
    `${others > 0 ? `; ${others} more similar case${others > 1 ? 's' : ''} agree` : ''}` +
    `${best.against > 0 ? `; a correction argued against it (−${best.against.toFixed(2)})` : ''}` +
    `${checks ? `; its cause does not speak to the stated circumstance, so prior "${checks.id}" adds its checks` : ''}`;
  return {
    text: `Investigate: ${p.cause}${checks ? ` (${checks.id}: ${checks.advice})` : ''}`,
    reason,
    basis: { kind: 'precedent', precedentId: p.id, label: p.label, source: p.source, score: best.net, agreeing: best.agreeing.length, via },
    votes: votes.slice(0, 5),
    precedents: [...scored],
  };
}

/**
 * Recurrence in memory: the same vote with similarity set aside, over the precedents whose circumstances
 * neither conflict with the report's nor lack one it states. Each weighs by fit, reliability and trust. The
 * leading cause counts when at least RECURRENCE_MIN_CASES closed cases (closedCases) agree with it and
 * its net vote is at least RECURRENCE_MIN_SHARE of the total weight. Among near-tied phrasings of it, the case
 * most similar to the report names it.
 */
function recurrence(
  scored: readonly ScoredPrecedent[],
  vectors: VectorMemo,
): { vote: CauseVote; cases: number; of: number; share: number } | undefined {
  const fitting = scored
    .filter((s) => s.fit.absent.length === 0 && s.fit.conflicting.length === 0)
    .map((s) => ({ ...s, score: s.fit.factor * s.reliability * s.trust }));
  const total = fitting.reduce((sum, s) => sum + s.score, 0);
  const votes = vote(fitting, vectors);
  const top = votes[0];
  if (!top || total <= 0) return undefined;
  const byId = new Map(fitting.map((s) => [s.precedent.id, s.precedent]));
  const cases = top.agreeing.reduce((n, id) => n + closedCases(byId.get(id)), 0);
  const share = top.net / total;
  if (cases < RECURRENCE_MIN_CASES || share < RECURRENCE_MIN_SHARE) return undefined;
  const of = fitting.reduce((n, s) => n + closedCases(s.precedent), 0);
  return { vote: closestAmongLeaders(votes, scored), cases, of, share };
}

function scorePrecedent(report: string, reportCirc: Circumstances, p: Precedent, vectors: VectorMemo): ScoredPrecedent {
  let similarity = rescale(vectors.cosine(report, p.situation), SITUATION_FLOOR);
  // A rule's condition is a few words: how much of it the report meets says more than a sentence cosine.
  if (p.source === 'fact') similarity = Math.max(similarity, coverage(p.situation, report));
  const fit = circumstanceFit(reportCirc, circumstancesOf(p.situation));
  const reliability = (p.outcome === null ? UNLABELLED_RELIABILITY : 1) * (p.corrected ? CORRECTED_BONUS : 1);
  const trust = p.confidence * (1 + 0.25 * Math.log2(Math.max(1, p.support)));
  return { precedent: p, similarity, fit, reliability, trust, score: similarity * fit.factor * reliability * trust };
}

/**
 * How alike two causes are, 0..1: the strongest of the word-level view, the view of what they lead with
 * ("Clock skew between …" and "Clock drift on …" are one kind of cause) and the (strictly rescaled) embedding.
 */
function causeLikeness(a: string, b: string, vectors: VectorMemo): number {
  if (a === b) return 1;
  return Math.max(lexicalLikeness(a, b), leadLikeness(a, b), rescale(vectors.cosine(a, b), CAUSE_FLOOR));
}

/** Whether a corrected-away belief M of a precedent whose actual cause is A names this cause, 0..1. */
function mistakeLikeness(mistaken: string, actual: string, cause: string, vectors: VectorMemo): number {
  if (cause === actual) return 0;
  if (stemsContained(mistaken, cause)) return 1;
  const margin = vectors.cosine(mistaken, cause) - vectors.cosine(mistaken, actual);
  return Math.min(1, Math.max(0, (margin - MISTAKE_MARGIN) / MISTAKE_MARGIN));
}

function vote(scored: readonly ScoredPrecedent[], vectors: VectorMemo): CauseVote[] {
  const causes = [...new Set(scored.map((s) => s.precedent.cause))];
  const position = new Map(causes.map((c, i) => [c, i]));
  const like = causes.map((a) => causes.map((b) => causeLikeness(a, b, vectors)));
  // wrong[j][k]: how much precedent j's correction rules out cause k.
  const wrong = scored.map((s) =>
    causes.map((c) => Math.max(0, ...s.precedent.mistaken.map((m) => mistakeLikeness(m, s.precedent.cause, c, vectors)))),
  );
  return causes
    .map((cause, i) => {
      let support = 0;
      let against = 0;
      const agreeing: string[] = [];
      scored.forEach((other, j) => {
        const own = like[i]![position.get(other.precedent.cause)!]!;
        support += other.score * own;
        if (own >= 0.5) agreeing.push(other.precedent.id);
        // Ruling out a cause rules out the causes like it, as far as they are alike — but never the causes
        // like the one the correction established.
        against += other.score * (1 - own) * Math.max(...causes.map((_, k) => wrong[j]![k]! * like[i]![k]!));
      });
      const precedentId = scored.find((s) => s.precedent.cause === cause)!.precedent.id;
      return { cause, precedentId, support, against, net: support - against, agreeing };
    })
    .sort((a, b) => b.net - a.net);
}

/** Cue classes in the priors' list sequence, so the list (not wording) breaks ties between circumstances. */
function inListSequence(classes: ReadonlySet<string>): string[] {
  return PRIORS.map((p) => p.id).filter((id) => classes.has(id));
}

/**
 * Among causes whose net vote is within NEAR_TIE of the best, the one whose own precedent fits the report best:
 * a short, general phrasing of a cause collects the votes of every case it resembles, but the case that
 * matches this report says it more precisely.
 */
function closestAmongLeaders(votes: readonly CauseVote[], scored: readonly ScoredPrecedent[]): CauseVote {
  const own = (v: CauseVote) => scored.find((s) => s.precedent.id === v.precedentId)?.score ?? 0;
  const leaders = votes.filter((v) => v.net >= NEAR_TIE * votes[0]!.net);
  return leaders.reduce((a, b) => (own(b) > own(a) ? b : a));
}

function priorDecision(reportCirc: Circumstances, why: string, votes: CauseVote[], scored: readonly ScoredPrecedent[], chosen?: Prior): Decision {
  const first = inListSequence(reportCirc.stated)[0];
  const prior = chosen ?? (first ? priorById(first) : GENERAL_PRIOR);
  return {
    text: `Investigate: ${prior.advice}`,
    reason: `prior "${prior.id}" (${prior.situation}): ${why}`,
    basis: { kind: 'prior', priorId: prior.id, situation: prior.situation, why },
    votes: votes.slice(0, 5),
    precedents: [...scored],
  };
}
