/**
 * Fact confidence that moves with evidence, and the revision rule.
 *
 * Model: a Beta-Bernoulli posterior over "the fact holds when it applies". The prior comes from where the fact
 * came from (`ORIGIN_PRIORS`: pseudo-counts α0 for, β0 against). Each episode that supports or contradicts
 * the fact adds its strength w ∈ (0, 1] to one side:
 *
 *     confidence = (α0 + Σw⁺) / (α0 + β0 + Σw⁺ + Σw⁻)
 *
 * So an extracted heuristic (α0 = 2, β0 = 1) starts at 0.67, rises towards 1 with support (three supporting
 * episodes: 0.83), and falls under 0.5 after two clear contradictions with no support (2 / 5 = 0.4). Each
 * episode counts once: evidence is keyed by episode id, so replaying it changes nothing, and an episode that
 * changes sides moves its weight rather than adding to both.
 *
 * Revision: when new contradictions (arrived since the current version was created) push confidence below the
 * threshold (default 0.5), a NEW version is created with the lowered confidence — and a revised text when one
 * is given — while the old version is kept as it was (storage only stamps its `expiredAt`). Requiring
 * contradictions since the version keeps one bad streak from minting a version per call.
 */
import { EngramError } from '../core/errors.js';
import { contentHash } from '../core/text.js';
import type { Episode, Fact, FactEvidence, Json, JsonObject, Provenance } from '../core/types.js';
import { parseLearnOptions } from './options.js';

export type Polarity = 'support' | 'contradict';

export interface Evidence {
  episodeId: string;
  polarity: Polarity;
  /** Strength in (0, 1]; defaults to 1. See `evidenceWeight`. */
  weight?: number | undefined;
}

export interface ConfidenceStats {
  alpha0: number;
  beta0: number;
  /** Σw⁺ and Σw⁻. */
  support: number;
  contradict: number;
  /** Each episode's current side and weight. */
  episodes: Record<string, { polarity: Polarity; weight: number }>;
  /** Σw⁻ when the current version was created. */
  contradictAtVersion: number;
  confidence: number;
}

/** Prior pseudo-counts by origin: a user's statement starts trusted, a machine's generalisation less so. */
export const ORIGIN_PRIORS: Readonly<Record<Provenance['origin'], { alpha0: number; beta0: number }>> = {
  user: { alpha0: 4, beta0: 1 },
  import: { alpha0: 3, beta0: 1 },
  extraction: { alpha0: 2, beta0: 1 },
  consolidation: { alpha0: 2, beta0: 1 },
  reflection: { alpha0: 1.5, beta0: 1 },
};

export function posteriorMean(alpha0: number, beta0: number, support: number, contradict: number): number {
  return (alpha0 + support) / (alpha0 + beta0 + support + contradict);
}

export function initialStats(origin: Provenance['origin'], prior = ORIGIN_PRIORS[origin]): ConfidenceStats {
  return {
    alpha0: prior.alpha0,
    beta0: prior.beta0,
    support: 0,
    contradict: 0,
    episodes: {},
    contradictAtVersion: 0,
    confidence: round(posteriorMean(prior.alpha0, prior.beta0, 0, 0)),
  };
}

/**
 * How strongly an episode speaks: a clear SUCCESS or FAILURE, or any episode with a correction, is full
 * evidence; PARTIAL is half; UNKNOWN a quarter (it happened, but we do not know how it went).
 */
export function evidenceWeight(episode: Pick<Episode, 'outcome' | 'corrections'>): number {
  if (episode.corrections.length > 0) return 1;
  return { SUCCESS: 1, FAILURE: 1, PARTIAL: 0.5, UNKNOWN: 0.25 }[episode.outcome];
}

/** Adds evidence; returns new stats (the input is not changed). */
export function applyEvidence(stats: ConfidenceStats, evidence: readonly Evidence[]): ConfidenceStats {
  const episodes = { ...stats.episodes };
  evidence.forEach((ev, i) => {
    const weight = ev.weight ?? 1;
    if (!(weight > 0 && weight <= 1)) {
      throw new EngramError('VALIDATION', `evidence.${i}.weight must be in (0, 1], got ${weight}`, {
        issues: [{ path: `evidence.${i}.weight`, message: 'must be in (0, 1]' }],
      });
    }
    if (!ev.episodeId) {
      throw new EngramError('VALIDATION', `evidence.${i}.episodeId is empty`, { issues: [{ path: `evidence.${i}.episodeId`, message: 'required' }] });
    }
    episodes[ev.episodeId] = { polarity: ev.polarity, weight };
  });
  let support = 0;
  let contradict = 0;
  for (const e of Object.values(episodes)) {
    if (e.polarity === 'support') support += e.weight;
    else contradict += e.weight;
  }
  return {
    ...stats,
    episodes,
    support: round(support),
    contradict: round(contradict),
    confidence: round(posteriorMean(stats.alpha0, stats.beta0, support, contradict)),
  };
}

/** True when contradictions that arrived since this version pushed confidence below the threshold. */
export function needsRevision(stats: ConfidenceStats, options?: unknown): boolean {
  const { revisionThreshold } = parseLearnOptions('confidence', options);
  return stats.confidence < revisionThreshold && stats.contradict > stats.contradictAtVersion;
}

export function supportingEpisodeIds(stats: ConfidenceStats): string[] {
  return Object.keys(stats.episodes).filter((id) => stats.episodes[id]!.polarity === 'support');
}

export function contradictingEpisodeIds(stats: ConfidenceStats): string[] {
  return Object.keys(stats.episodes).filter((id) => stats.episodes[id]!.polarity === 'contradict');
}

const META_KEY = 'evidence';

/**
 * The stats kept on a fact (in `metadata.evidence`). A fact without them (written by hand, imported) gets
 * its origin's prior plus its support/contradict counts at weight 1 under synthetic episode ids.
 */
export function statsFromFact(fact: Pick<Fact, 'metadata' | 'provenance' | 'supportCount' | 'contradictCount'>): ConfidenceStats {
  const stored = readStored(fact.metadata[META_KEY]);
  if (stored) return stored;
  const base = initialStats(fact.provenance.origin);
  const evidence: Evidence[] = [
    ...Array.from({ length: fact.supportCount }, (_, i): Evidence => ({ episodeId: `support#${i}`, polarity: 'support' })),
    ...Array.from({ length: fact.contradictCount }, (_, i): Evidence => ({ episodeId: `contradict#${i}`, polarity: 'contradict' })),
  ];
  const applied = applyEvidence(base, evidence);
  return { ...applied, contradictAtVersion: applied.contradict };
}

/** The fact fields that mirror the stats: confidence, counts and `metadata.evidence`. */
export function factFieldsFromStats(fact: Pick<Fact, 'metadata'>, stats: ConfidenceStats): Pick<Fact, 'confidence' | 'supportCount' | 'contradictCount' | 'metadata'> {
  return {
    confidence: stats.confidence,
    supportCount: supportingEpisodeIds(stats).length,
    contradictCount: contradictingEpisodeIds(stats).length,
    metadata: { ...fact.metadata, [META_KEY]: toJson(stats) },
  };
}

/**
 * Stats from storage's evidence rows (`FactEvidence`). Pass the rows of every version of the fact's key, so a
 * new version inherits the evidence that produced it; for an episode with several rows the latest wins.
 * Evidence recorded up to the version's `recordedAt` counts as known when the version was created.
 */
export function statsFromEvidence(
  fact: Pick<Fact, 'provenance' | 'recordedAt'>,
  rows: readonly Pick<FactEvidence, 'episodeId' | 'polarity' | 'weight' | 'at'>[],
): ConfidenceStats {
  const ordered = [...rows].sort((a, b) => a.at - b.at);
  const base = initialStats(fact.provenance.origin);
  const known = applyEvidence(base, ordered.filter((r) => r.at <= fact.recordedAt));
  const all = applyEvidence(base, ordered);
  return { ...all, contradictAtVersion: known.contradict };
}

export interface RevisionPlan {
  /** The new version to insert. */
  next: Fact;
  /** The old version, unchanged except that storage should stamp `expiredAt` on it. */
  close: { id: string; expiredAt: number };
}

/**
 * Builds the next version of a fact from its evidence. Same key, `version + 1`, `supersedes` the old id,
 * confidence from the stats; the text is revised when `text` is given. Provenance gains the episodes that
 * contradicted it, so the revision can be traced.
 */
export function planRevision(fact: Fact, stats: ConfidenceStats, opts: { id: string; now: number; text?: string; reason?: string }): RevisionPlan {
  const text = opts.text?.trim() || fact.text;
  const version: ConfidenceStats = { ...stats, contradictAtVersion: stats.contradict };
  const contradicting = contradictingEpisodeIds(stats);
  const next: Fact = {
    ...fact,
    ...factFieldsFromStats(fact, version),
    id: opts.id,
    version: fact.version + 1,
    supersedes: fact.id,
    text,
    contentHash: text === fact.text ? fact.contentHash : contentHash(text),
    recordedAt: opts.now,
    expiredAt: undefined,
    provenance: {
      ...fact.provenance,
      episodeIds: [...new Set([...(fact.provenance.episodeIds ?? []), ...Object.keys(stats.episodes)])],
      note: opts.reason ?? `revised: confidence ${stats.confidence} below threshold after ${contradicting.length} contradicting episode(s)`,
    },
  };
  next.metadata = { ...next.metadata, revisedFrom: fact.id };
  return { next, close: { id: fact.id, expiredAt: opts.now } };
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

function toJson(stats: ConfidenceStats): JsonObject {
  const episodes: JsonObject = {};
  for (const [id, e] of Object.entries(stats.episodes)) episodes[id] = { polarity: e.polarity, weight: e.weight };
  return {
    alpha0: stats.alpha0,
    beta0: stats.beta0,
    support: stats.support,
    contradict: stats.contradict,
    contradictAtVersion: stats.contradictAtVersion,
    confidence: stats.confidence,
    episodes,
  };
}

function readStored(v: Json | undefined): ConfidenceStats | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const num = (k: string) => (typeof v[k] === 'number' ? (v[k] as number) : undefined);
  const alpha0 = num('alpha0');
  const beta0 = num('beta0');
  const eps = v.episodes;
  if (alpha0 === undefined || beta0 === undefined || !eps || typeof eps !== 'object' || Array.isArray(eps)) return undefined;
  const episodes: ConfidenceStats['episodes'] = {};
  for (const [id, e] of Object.entries(eps)) {
    if (!e || typeof e !== 'object' || Array.isArray(e)) continue;
    const polarity = e.polarity === 'contradict' ? 'contradict' : e.polarity === 'support' ? 'support' : undefined;
    if (polarity && typeof e.weight === 'number') episodes[id] = { polarity, weight: e.weight };
  }
  const base: ConfidenceStats = { alpha0, beta0, support: 0, contradict: 0, episodes: {}, contradictAtVersion: num('contradictAtVersion') ?? 0, confidence: 0 };
  return applyEvidence(base, Object.entries(episodes).map(([episodeId, e]) => ({ episodeId, ...e })));
}
