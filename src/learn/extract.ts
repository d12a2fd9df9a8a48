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
 *     seeds have and the cluster's reports lack become the condition, if they tell the seeds' kind apart: in
 *     more reports of the episodes akin to the seeds' causes than of all the others, cluster included (a word
 *     other causes' reports have as often — "run", "since" — would fire the rule on them); every other-cause
 *     episode whose report has them supports "When a report mentions <terms>, suspect <their shared cause>,
 *     not <cluster cause>"; cluster members whose reports have them anyway contradict it. Without a shared cause to suspect, it
 *     suspects the separating word itself, and only when some supporter's root cause names that word and no
 *     report of the cluster has it.
 *
 * Every candidate goes through the usefulness filter; the rejected ones come back too, with reasons. The word
 * sets, the clustering and the term statistics are in extract-clusters.ts; this file phrases the candidates.
 */
import { contentHash } from '../core/text.js';
import type { Episode, Outcome } from '../core/types.js';
import { findingsOf, situationOf, type DescribeEvent } from './describe-episode.js';
import {
  clusterByCause,
  compactest,
  conditionOf,
  headClause,
  matchShare,
  prepare,
  sameCause,
  separatingTerms,
  sharedTerms,
  typical,
  type Prepared,
} from './extract-clusters.js';
import { parseLearnOptions, type ExtractOptions } from './options.js';
import { articled, listPhrase, phraseFor, surfacesOf } from './phrase.js';
import { intersectionSize, overlapCoefficient, tidy } from './text.js';
import { assessUsefulness, type UsefulnessVerdict } from './usefulness.js';

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
  // The episodes akin to the seeds' causes (the same cause, or as many shared cause words as a cause match needs),
  // against every other episode: the words must tell them apart.
  const group = others.filter((p) => seeds.some((q) => q === p || sameCause(p, q, opts) || intersectionSize(p.cause, q.cause) >= opts.minSharedCauseTerms));
  const inGroup = new Set(group);
  const rest = all.filter((p) => !inGroup.has(p));
  const distinct = separatingTerms(seeds, others, cluster, { group, rest }).slice(0, opts.maxConditionTerms);
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

function evidenceText(p: Prepared): string {
  return episodeEvidenceText(p.ep);
}

/** What an episode saw, as one text: the evidence a heuristic's words are checked against. */
export function episodeEvidenceText(e: ExtractionEpisode): string {
  return [e.situation, ...(e.findings ?? []), e.rootCause ?? '', ...e.corrections].join(' ');
}
