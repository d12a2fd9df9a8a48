/**
 * Heuristic extraction: generalised facts from patterns several closed episodes share, built only from the
 * episodes' own words (templates add "When …, check …" and counts, never domain words).
 *
 *  1. Cluster the episodes that have a root cause by cause similarity: at least `minSharedCauseTerms`
 *     specific cause terms shared and either an overlap coefficient ≥ `causeOverlap` or a shared compound
 *     ("connection pool", "disk quota": neighbouring terms in the same order); or cause vectors with cosine ≥
 *     `causeCosine` when given. An episode joins the first cluster it matches for at least half the members.
 *  2. pattern — for each cluster of ≥ 2: the cause terms most members share, phrased as the shortest span of
 *     a member's root cause that holds them; the condition terms are report words (stated, not denied, and
 *     diagnostic: no reporting verbs or words every report has — usefulness.ts) frequent in the cluster
 *     (≥ `contextShare`) and rarer outside it (notes join in, then words two members share, when reports
 *     vary). "When a report mentions <terms>, check <cause> (seen in N episodes; corrected from <wrong
 *     assumption> in M)". Supporting: the members; contradicting: episodes with a different known cause whose
 *     report matches the condition (≥ `contradictMatch`).
 *  3. counter_pattern — seeded by the cluster's look-alikes: episodes with another cause whose report matched
 *     its condition or whose mistaken belief was its cause (assumption / corrected "not …"). Report words the
 *     seeds have and the cluster's reports lack become the condition; every other-cause episode whose report
 *     has them supports "When a report mentions <terms>, suspect <their shared cause>, not <cluster cause>";
 *     cluster members whose reports have them anyway contradict it. Without a shared cause to suspect, it
 *     suspects the separating word itself, and only when some supporter's root cause names that word and no
 *     report of the cluster has it.
 *
 * Every candidate goes through the usefulness filter; the rejected ones come back too, with reasons.
 */
import { contentHash } from '../core/text.js';
import type { Episode, Outcome } from '../core/types.js';
import { parseCorrection, statedText } from './cues.js';
import { findingsOf, situationOf, type DescribeEvent } from './describe-episode.js';
import { parseLearnOptions, type ExtractOptions } from './options.js';
import { articled, listPhrase, phraseFor, surfacesOf } from './phrase.js';
import { contentTerms, intersectionSize, isGenericStem, isNumberLike, overlapCoefficient, tidy, type Term } from './text.js';
import { assessUsefulness, isDiagnosticStem, type UsefulnessVerdict } from './usefulness.js';
import { cosine } from './vector.js';

export interface ExtractionEpisode {
  id: string;
  outcome: Outcome;
  rootCause?: string | undefined;
  /** What was known at the start: the report. */
  situation: string;
  /** What the investigation found; used when the situation alone names too few shared terms. */
  findings?: readonly string[] | undefined;
  assumptions: readonly string[];
  corrections: readonly string[];
  /** Embedding of the root cause (or summary), for clustering by meaning. */
  causeVector?: Float32Array | undefined;
}

export type HeuristicKind = 'pattern' | 'counter_pattern';

export interface HeuristicCandidate {
  kind: HeuristicKind;
  text: string;
  /** Stable identity across re-extractions (kind + cause terms …): match it to an existing fact's key. */
  key: string;
  conditionTerms: string[];
  causeTerms: string[];
  supportingEpisodeIds: string[];
  contradictingEpisodeIds: string[];
  /** Supporting episodes that carried a correction. */
  correctedEpisodeIds: string[];
  usefulness: UsefulnessVerdict;
  method: 'heuristic' | 'llm';
}

export interface ExtractionResult {
  accepted: HeuristicCandidate[];
  rejected: HeuristicCandidate[];
}

export interface Extractor {
  readonly name: string;
  extract(episodes: readonly ExtractionEpisode[], opts?: { signal?: AbortSignal }): Promise<ExtractionResult>;
}

/** Builds the extractor's view of a closed episode from its record and events. */
export function toExtractionEpisode(
  episode: Pick<Episode, 'id' | 'outcome' | 'rootCause' | 'assumptions' | 'corrections' | 'summary'>,
  events: readonly DescribeEvent[],
  causeVector?: Float32Array,
): ExtractionEpisode {
  return {
    id: episode.id,
    outcome: episode.outcome,
    rootCause: episode.rootCause,
    situation: situationOf(events) ?? episode.summary,
    findings: findingsOf(events),
    assumptions: episode.assumptions,
    corrections: episode.corrections,
    causeVector,
  };
}

/** Per-episode word sets, computed once. */
interface Prepared {
  ep: ExtractionEpisode;
  cause: Set<string>;
  causePairs: Set<string>;
  situation: Set<string>;
  /** Situation and findings together. */
  context: Set<string>;
  /** What the episode wrongly believed: assumptions plus corrections' "not …". */
  mistaken: Set<string>;
  mistakenText?: string | undefined;
}

export class HeuristicExtractor implements Extractor {
  readonly name = 'heuristic';
  private readonly options: ExtractOptions;
  constructor(
    options?: unknown,
    private readonly usefulnessOptions?: unknown,
  ) {
    this.options = parseLearnOptions('extract', options);
  }
  extract(episodes: readonly ExtractionEpisode[]): Promise<ExtractionResult> {
    return Promise.resolve(extractHeuristics(episodes, this.options, this.usefulnessOptions));
  }
}

export function extractHeuristics(episodes: readonly ExtractionEpisode[], options?: unknown, usefulnessOptions?: unknown): ExtractionResult {
  const opts = parseLearnOptions('extract', options);
  const all = episodes.map(prepare);
  const withCause = all.filter((p) => p.cause.size > 0 || p.ep.causeVector);
  const clusters = clusterByCause(withCause, opts).filter((c) => c.length >= 2);
  const candidates: HeuristicCandidate[] = [];
  for (const cluster of clusters) {
    const pattern = patternOf(cluster, all, opts, usefulnessOptions);
    if (!pattern) continue;
    candidates.push(pattern.candidate);
    const counter = counterPatternOf(cluster, pattern, all, opts, usefulnessOptions);
    if (counter) candidates.push(counter);
  }
  return {
    accepted: candidates.filter((c) => c.usefulness.useful),
    rejected: candidates.filter((c) => !c.usefulness.useful),
  };
}

function prepare(ep: ExtractionEpisode): Prepared {
  const mistakenTexts = [...ep.assumptions, ...ep.corrections.map((c) => parseCorrection(c).mistaken ?? '')].filter(Boolean);
  return {
    ep,
    cause: specificStems(ep.rootCause ?? ''),
    causePairs: stemPairs(ep.rootCause ?? ''),
    situation: cueStems([ep.situation]),
    context: cueStems([ep.situation, ...(ep.findings ?? [])]),
    mistaken: specificStems(mistakenTexts.join(' ')),
    mistakenText: mistakenTexts[0],
  };
}

/**
 * The words a report or finding can be recognised by: what it states (denied words — "disk usage is normal",
 * "no errors" — are left out), diagnostic (no reporting verbs, ubiquitous symptom words or words of amount).
 */
function cueStems(texts: readonly string[]): Set<string> {
  return new Set([...specificStems(texts.map(statedText).join('. '))].filter(isDiagnosticStem));
}

function specificStems(text: string): Set<string> {
  return new Set(specificTerms(text).map((t) => t.stem));
}

function specificTerms(text: string): Term[] {
  return contentTerms(text).filter((t) => !isGenericStem(t.stem) && !isNumberLike(t.stem));
}

/** Ordered pairs of neighbouring specific terms ("connection pool"): a shared compound names the same thing. */
function stemPairs(text: string): Set<string> {
  const terms = specificTerms(text);
  const out = new Set<string>();
  for (let i = 1; i < terms.length; i++) if (terms[i]!.index - terms[i - 1]!.index <= 2) out.add(`${terms[i - 1]!.stem} ${terms[i]!.stem}`);
  return out;
}

function sameCause(a: Prepared, b: Prepared, opts: ExtractOptions): boolean {
  if (a.ep.causeVector && b.ep.causeVector && cosine(a.ep.causeVector, b.ep.causeVector) >= opts.causeCosine) return true;
  if (intersectionSize(a.cause, b.cause) < opts.minSharedCauseTerms) return false;
  return overlapCoefficient(a.cause, b.cause) >= opts.causeOverlap || intersectionSize(a.causePairs, b.causePairs) > 0;
}

/** Greedy, order-stable clustering: join the first cluster where most members share the cause. */
function clusterByCause(items: readonly Prepared[], opts: ExtractOptions): Prepared[][] {
  const clusters: Prepared[][] = [];
  for (const item of items) {
    const home = clusters.find((c) => c.filter((m) => sameCause(m, item, opts)).length * 2 >= c.length);
    if (home) home.push(item);
    else clusters.push([item]);
  }
  return clusters;
}

interface Pattern {
  candidate: HeuristicCandidate;
  causeTerms: Set<string>;
  conditionTerms: Set<string>;
  shortCause: string;
}

function patternOf(cluster: Prepared[], all: readonly Prepared[], opts: ExtractOptions, uOpts: unknown): Pattern | undefined {
  const medoid = typical(cluster);
  const causeTerms = sharedTerms(cluster.map((p) => p.cause), 0.6);
  if (causeTerms.size === 0) for (const s of medoid.cause) causeTerms.add(s);
  if (causeTerms.size === 0) return undefined;
  const members = new Set(cluster);
  const outside = all.filter((p) => !members.has(p));
  const conditionTerms = conditionOf(cluster, outside, opts);
  if (conditionTerms.length === 0) return undefined;

  const voice = compactest(cluster, causeTerms);
  const voiceCause = headClause(voice.ep.rootCause ?? '', causeTerms, cluster);
  const causePhrase = phraseFor(voiceCause, causeTerms, 12);
  const shortCause = phraseFor(voiceCause, causeTerms, 6);
  const condSet = new Set(conditionTerms);
  const contradicting = outside.filter((p) => p.cause.size > 0 && !sameCause(p, medoid, opts) && matchShare(p.situation, condSet) >= opts.contradictMatch);
  const corrected = cluster.filter((p) => p.ep.corrections.length > 0);
  const wrong = corrected.map((p) => p.mistakenText).find(Boolean);
  const stats = [`seen in ${cluster.length} episodes`, ...(corrected.length && wrong ? [`corrected from ${tidy(wrong)} in ${corrected.length}`] : [])];
  const text = `When a report mentions ${listPhrase(surfacesOf(conditionTerms, cluster.flatMap((p) => [p.ep.situation, ...(p.ep.findings ?? [])])))}, check ${causePhrase} (${stats.join('; ')}).`;
  const supporting = cluster.map((p) => p.ep.id);
  return {
    causeTerms,
    conditionTerms: condSet,
    shortCause,
    candidate: {
      kind: 'pattern',
      text,
      key: `heuristic:${contentHash('pattern', [...causeTerms].sort().join(' '))}`,
      conditionTerms,
      causeTerms: [...causeTerms],
      supportingEpisodeIds: supporting,
      contradictingEpisodeIds: contradicting.map((p) => p.ep.id),
      correctedEpisodeIds: corrected.map((p) => p.ep.id),
      usefulness: assessUsefulness({ text, supportingEpisodeIds: supporting, evidenceTexts: cluster.map(evidenceText) }, uOpts),
      method: 'heuristic',
    },
  };
}

function counterPatternOf(cluster: Prepared[], pattern: Pattern, all: readonly Prepared[], opts: ExtractOptions, uOpts: unknown): HeuristicCandidate | undefined {
  const members = new Set(cluster);
  const medoid = typical(cluster);
  // Episodes with a known cause other than the cluster's; the seeds among them looked like the cluster or were
  // mistaken for it.
  const others = all.filter((p) => !members.has(p) && p.cause.size > 0 && !sameCause(p, medoid, opts));
  const seeds = others.filter(
    (p) =>
      matchShare(p.situation, pattern.conditionTerms) >= opts.contradictMatch ||
      (p.mistaken.size > 0 && overlapCoefficient(p.mistaken, pattern.causeTerms) >= opts.causeOverlap),
  );
  if (seeds.length === 0) return undefined;
  const distinct = separatingTerms(seeds, others, cluster).slice(0, opts.maxConditionTerms);
  if (distinct.length === 0) return undefined;
  const distinctSet = new Set(distinct);
  // Every other-cause episode whose report has the separating words supports "not the cluster's cause here".
  const supporters = others.filter((p) => matchShare(p.situation, distinctSet) >= 0.5);
  const theirCause = sharedTerms(supporters.map((p) => p.cause), 0.6);
  let suspect: string;
  if (theirCause.size > 0 && supporters.length >= 2) suspect = articled(phraseFor(headClause(compactest(supporters, theirCause).ep.rootCause ?? '', theirCause, supporters), theirCause, 8));
  else {
    // No shared cause to name: the separating word itself, but only one a root cause named ("the release")
    // and no report of the cluster has: never a symptom ("the crash", "the rejected") the two kinds share.
    const named = distinct.find((t) => supporters.some((p) => p.cause.has(t)) && !cluster.some((p) => p.situation.has(t)));
    if (!named) return undefined;
    suspect = `the ${surfacesOf([named], supporters.flatMap((p) => [p.ep.rootCause ?? '', p.ep.situation]))[0]!.toLowerCase()}`;
  }
  const contradicting = cluster.filter((p) => matchShare(p.situation, distinctSet) >= opts.contradictMatch);
  const corrected = supporters.filter((p) => p.ep.corrections.length > 0);
  const stats = [`seen in ${supporters.length} episodes`, ...(corrected.length ? [`corrected in ${corrected.length}`] : [])];
  const text = `When a report mentions ${listPhrase(surfacesOf(distinct, supporters.map((p) => p.ep.situation)))}, suspect ${suspect}, not ${pattern.shortCause} (${stats.join('; ')}).`;
  const supporting = supporters.map((p) => p.ep.id);
  return {
    kind: 'counter_pattern',
    text,
    key: `heuristic:${contentHash('counter_pattern', [...pattern.causeTerms].sort().join(' '), [...distinctSet].sort().join(' '))}`,
    conditionTerms: distinct,
    causeTerms: [...theirCause],
    supportingEpisodeIds: supporting,
    contradictingEpisodeIds: contradicting.map((p) => p.ep.id),
    correctedEpisodeIds: corrected.map((p) => p.ep.id),
    usefulness: assessUsefulness({ text, supportingEpisodeIds: supporting, evidenceTexts: [...supporters, ...cluster].map(evidenceText) }, uOpts),
    method: 'heuristic',
  };
}

/**
 * Words of the look-alikes' reports that separate them from the cluster: in at least half of the seeds and at
 * most a quarter of the cluster, ranked by how much more often other-cause reports have them than the
 * cluster's reports do. Words at least two other-cause episodes share are kept when any exist — they
 * generalise; a word only one report has (a service name) does not.
 */
function separatingTerms(seeds: readonly Prepared[], others: readonly Prepared[], cluster: readonly Prepared[]): string[] {
  const inSeeds = shareOf(seeds, (p) => p.situation);
  const inCluster = shareOf(cluster, (p) => p.situation);
  const ranked = [...inSeeds]
    .filter(([t, share]) => share >= 0.5 && (inCluster.get(t) ?? 0) <= 0.25)
    .map(([t]) => ({ t, n: others.filter((p) => p.situation.has(t)).length, inCluster: inCluster.get(t) ?? 0 }))
    .sort((a, b) => b.n / others.length - b.inCluster - (a.n / others.length - a.inCluster) || b.n - a.n || a.t.localeCompare(b.t));
  const shared = ranked.filter((x) => x.n >= 2);
  return (shared.length > 0 ? shared : ranked).map((x) => x.t);
}

/** Terms present in at least `share` of the sets (and in at least two of them when there are two or more). */
function sharedTerms(sets: readonly Set<string>[], share: number): Set<string> {
  const counts = new Map<string, number>();
  for (const s of sets) for (const t of s) counts.set(t, (counts.get(t) ?? 0) + 1);
  const need = Math.max(sets.length >= 2 ? 2 : 1, Math.ceil(share * sets.length));
  return new Set([...counts].filter(([, n]) => n >= need).map(([t]) => t));
}

/**
 * The words that describe a cluster's situation: report words in at least `contextShare` of its members and
 * rarer outside; when fewer than two, the findings (notes) join the reports; when a diverse cluster still
 * has fewer than two, words at least two members share. A growing cluster must not lose its pattern just
 * because its reports vary.
 */
function conditionOf(cluster: readonly Prepared[], outside: readonly Prepared[], opts: ExtractOptions): string[] {
  const out: string[] = [];
  const add = (terms: string[]) => {
    for (const t of terms) if (!out.includes(t)) out.push(t);
  };
  add(distinctiveTerms(cluster, outside, (p) => p.situation, opts.contextShare, 'lift'));
  if (out.length < 2) add(distinctiveTerms(cluster, outside, (p) => p.context, opts.contextShare, 'lift'));
  if (out.length < 2) add(distinctiveTerms(cluster, outside, (p) => p.context, 0, 'share'));
  return out.slice(0, opts.maxConditionTerms);
}

/**
 * Terms in at least `share` of `inside` (and two of them) that are more frequent inside than outside, ranked by
 * `lift` (the difference of the two shares) or by `share` inside (for a diverse cluster, where the most common
 * words describe it best); remaining ties alphabetical for determinism.
 */
function distinctiveTerms(
  inside: readonly Prepared[],
  outside: readonly Prepared[],
  field: (p: Prepared) => Set<string>,
  share: number,
  rank: 'lift' | 'share',
): string[] {
  const shareIn = shareOf(inside, field);
  const shareOut = shareOf(outside, field);
  const need = inside.length >= 2 ? Math.max(2 / inside.length, share) : 1;
  return [...shareIn]
    .filter(([, s]) => s >= need - 1e-9)
    .map(([t, s]) => ({ t, s, lift: s - (shareOut.get(t) ?? 0) }))
    .filter((x) => x.lift > 0)
    .sort((a, b) => (rank === 'lift' ? b.lift - a.lift || b.s - a.s : b.s - a.s || b.lift - a.lift) || a.t.localeCompare(b.t))
    .map((x) => x.t);
}

function shareOf(items: readonly Prepared[], field: (p: Prepared) => Set<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of items) for (const t of field(p)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return new Map([...counts].map(([t, n]) => [t, items.length === 0 ? 0 : n / items.length]));
}

function matchShare(have: Set<string>, need: Set<string>): number {
  if (need.size === 0) return 0;
  let n = 0;
  for (const t of need) if (have.has(t)) n++;
  return n / need.size;
}

/**
 * A root cause's leading clause ("Clock skew between two hosts" of "Clock skew between two hosts: the time
 * daemon had stopped") when it holds at least half of the given terms the whole cause holds, each weighed by
 * how many members' causes have it: the phrase then reads as one statement instead of words picked across a
 * colon or dash. A cause names what failed first and elaborates after, so only the leading clause stands alone.
 */
function headClause(rootCause: string, stems: ReadonlySet<string>, members: readonly Prepared[]): string {
  const head = rootCause.split(/\s*(?::|;|\s[—–-]\s)\s*/)[0] ?? rootCause;
  if (head.length === rootCause.length) return rootCause;
  const weight = (t: string) =>
    [...new Set(contentTerms(t).map((x) => x.stem))].filter((x) => stems.has(x)).reduce((sum, x) => sum + members.filter((m) => m.cause.has(x)).length, 0);
  return weight(head) > 0 && weight(head) * 2 >= weight(rootCause) ? head : rootCause;
}

/** The member whose cause overlaps the others' most (the earliest on ties). */
function typical(cluster: readonly Prepared[]): Prepared {
  let best = cluster[0]!;
  let bestScore = -1;
  for (const p of cluster) {
    const score = cluster.reduce((s, q) => (q === p ? s : s + overlapCoefficient(p.cause, q.cause)), 0);
    if (score > bestScore) {
      best = p;
      bestScore = score;
    }
  }
  return best;
}

/** The member whose root cause holds the most shared cause terms in the shortest span (the typical one on ties). */
function compactest(cluster: readonly Prepared[], stems: Set<string>): Prepared {
  const first = typical(cluster);
  let best = first;
  let bestKey: [number, number] = [-1, 0];
  for (const p of [first, ...cluster.filter((q) => q !== first)]) {
    const hits = contentTerms(p.ep.rootCause ?? '').filter((t) => stems.has(t.stem));
    if (hits.length === 0) continue;
    const covered = new Set(hits.map((h) => h.stem)).size;
    const span = hits.at(-1)!.index - hits[0]!.index + 1;
    if (covered > bestKey[0] || (covered === bestKey[0] && span < bestKey[1])) {
      best = p;
      bestKey = [covered, span];
    }
  }
  return best;
}

function evidenceText(p: Prepared): string {
  return episodeEvidenceText(p.ep);
}

/** What an episode saw, as one text: the evidence a heuristic's words are checked against. */
export function episodeEvidenceText(e: ExtractionEpisode): string {
  return [e.situation, ...(e.findings ?? []), e.rootCause ?? '', ...e.corrections].join(' ');
}
