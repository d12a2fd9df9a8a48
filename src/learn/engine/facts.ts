/**
 * Generalised facts on storage: heuristics from the extractor become fact lineages with episode evidence, and
 * every new piece of evidence (from extraction or from the reinforcement loop) moves the lineage's confidence.
 *
 * Confidence (see ../confidence.ts): a Beta-Bernoulli posterior, confidence = (α0 + Σw⁺) / (α0 + β0 + Σw⁺ + Σw⁻),
 * with the origin's prior (extraction 2:1 → 0.67 at birth) and each episode counted once across the lineage
 * (its latest judgement wins). When contradictions that arrived after the live version was created push it
 * below `learn.confidence.revisionThreshold` (0.5), a NEW version is written (`supersedes` the old one, which
 * storage closes but keeps: `factHistory` returns both) with the lower confidence and a text that says what
 * contradicted it. Otherwise the live version's counters are updated in place (its text never changes).
 */
import { newId } from '../../core/ids.js';
import { contentHash } from '../../core/text.js';
import type { Episode, Fact, FactEvidence, Link } from '../../core/types.js';
import {
  contradictingEpisodeIds,
  evidenceWeight,
  factFieldsFromStats,
  initialStats,
  needsRevision,
  planRevision,
  statsFromEvidence,
  type Polarity,
} from '../confidence.js';
import type { HeuristicCandidate } from '../extract.js';
import type { RetireReason } from '../retire.js';
import { clip } from '../text.js';
import type { EngineContext } from './context.js';
import { metaString } from './episode-record.js';
import { makeLink } from './links.js';

/** A new version's place in its lineage: a fresh id, and the version after `live`, superseding it (else the first). */
export function versionAfter(live: Fact | undefined, key: string, now: number): Pick<Fact, 'id' | 'key' | 'version' | 'supersedes'> {
  return { id: newId('fact', now), key, version: live ? live.version + 1 : 1, ...(live ? { supersedes: live.id } : {}) };
}

export interface EvidenceInput {
  episodeId: string;
  polarity: Polarity;
  weight: number;
}

export interface FactUpdate {
  /** The version the evidence was recorded against (e.g. the one that was retrieved). */
  factId: string;
  key: string;
  /** The live version after the update: the same as before, or the new revision. */
  liveId: string;
  version: number;
  confidenceBefore: number;
  confidence: number;
  supportCount: number;
  contradictCount: number;
  /** Evidence rows actually added (repeats of an episode's standing judgement are not). */
  added: EvidenceInput[];
  /** Set when this update created a new version. */
  revisedFrom?: string | undefined;
}

/** Every evidence row of a lineage (all versions), oldest first. */
async function lineageEvidence(ctx: EngineContext, tenant: string, versions: readonly Fact[]): Promise<FactEvidence[]> {
  const rows = (await Promise.all(versions.map((v) => ctx.storage.getFactEvidence(tenant, v.id)))).flat();
  return rows.sort((a, b) => a.at - b.at);
}

/** The judgement currently standing for each episode (its latest row). */
function standing(rows: readonly FactEvidence[]): Map<string, FactEvidence> {
  const out = new Map<string, FactEvidence>();
  for (const r of rows) out.set(r.episodeId, r);
  return out;
}

/**
 * Records evidence against a fact version (its lineage, really) and updates the live version: counters in
 * place, or a revision below the threshold. Evidence equal to an episode's standing judgement is skipped, so
 * re-running extraction or re-reporting an outcome changes nothing.
 */
export async function addEvidence(ctx: EngineContext, tenant: string, fact: Fact, evidence: readonly EvidenceInput[]): Promise<FactUpdate | undefined> {
  const now = ctx.clock.now();
  const live = (await ctx.storage.getLiveFact(tenant, fact.key, now)) ?? (fact.expiredAt === undefined ? fact : undefined);
  // A lineage whose validity has ended (a retired rule, engine/retire.ts) takes no more evidence.
  if (!live || (live.validTo !== undefined && live.validTo <= now)) return undefined;
  const versions = await ctx.storage.getFactVersions({ tenant, key: fact.key });
  const rows = await lineageEvidence(ctx, tenant, versions);
  const current = standing(rows);
  const added = evidence.filter((e) => {
    const s = current.get(e.episodeId);
    return !s || s.polarity !== e.polarity || Math.abs(s.weight - e.weight) > 1e-6;
  });
  if (added.length > 0) {
    await ctx.storage.addFactEvidence(added.map((e) => ({ tenant, factId: fact.id, episodeId: e.episodeId, polarity: e.polarity, weight: e.weight, at: now })));
  }
  const all = [...rows, ...added.map((e) => ({ tenant, factId: fact.id, episodeId: e.episodeId, polarity: e.polarity, weight: e.weight, at: now }))];
  const stats = statsFromEvidence(live, all);
  const base = { factId: fact.id, key: fact.key, confidenceBefore: live.confidence, added };
  if (needsRevision(stats, ctx.settings.confidence)) {
    const contradicting = await ctx.storage.getEpisodes(tenant, contradictingEpisodeIds(stats));
    const plan = planRevision(live, stats, { id: newId('fact', now), now, text: revisedText(live.text, contradicting, stats.confidence) });
    const { fact: next } = await ctx.storage.putFact(plan.next);
    return { ...base, liveId: next.id, version: next.version, confidence: next.confidence, supportCount: next.supportCount, contradictCount: next.contradictCount, revisedFrom: live.id };
  }
  const fields = factFieldsFromStats(live, stats);
  if (added.length > 0 || fields.confidence !== live.confidence) {
    await ctx.storage.updateFactStats(tenant, live.id, { confidence: fields.confidence, supportCount: fields.supportCount, contradictCount: fields.contradictCount });
  }
  return { ...base, liveId: live.id, version: live.version, confidence: fields.confidence, supportCount: fields.supportCount, contradictCount: fields.contradictCount };
}

const REVISION_MARK = ' Revised:';
const CLAIM_END = /\s(?:Revised|Retired):/;

/** A rule's statement without what a revision or a retirement appended to it. */
export function claimText(text: string): string {
  const end = CLAIM_END.exec(text);
  return (end ? text.slice(0, end.index) : text).trim();
}

/**
 * The revised statement keeps the claim and says what went against it, so a reader sees the exception:
 * "<claim> Revised: confidence 0.40 after 2 contradicting episode(s), e.g. <situation> (root cause: <cause>)."
 */
export function revisedText(text: string, contradicting: readonly Episode[], confidence: number): string {
  const claim = claimText(text);
  const example = contradicting.at(-1);
  const situation = example ? (metaString(example.metadata, 'situation') ?? example.summary) : undefined;
  const e = example
    ? `, e.g. ${clip(situation ?? '', 100)}${example.rootCause ? ` (root cause: ${clip(example.rootCause, 100)})` : ''}`
    : '';
  return `${claim}${REVISION_MARK} confidence ${confidence.toFixed(2)} after ${contradicting.length} contradicting episode(s)${e}.`;
}

/** The extractor's text without its trailing statistics "(seen in 3 episodes; …)": counts live in the fact. */
export function statementOf(candidateText: string): string {
  return candidateText.replace(/\s*\((?:seen in|corrected)[^()]*\)\s*(?=\.?$)/, '').trim();
}

export interface ExtractionApplied {
  created: FactUpdate[];
  updated: FactUpdate[];
  revised: FactUpdate[];
  /** Rules retired in this run (engine/retire.ts): `liveId` is the closing version, `revisedFrom` the rule. */
  retired: (FactUpdate & { reason: RetireReason })[];
  links: Link[];
  rejected: number;
}

/**
 * What to do with a candidate whose lineage was retired (its live version's validity has ended): a new version
 * to add evidence to, or undefined to leave it retired.
 */
export type Relearn = (c: HeuristicCandidate, retired: Fact) => Promise<Fact | undefined>;

/**
 * Stores accepted heuristics. A candidate's key is stable across runs, so a lineage is created once (its
 * wording fixed then) and every later run only adds evidence: supporting episodes for, contradicting ones
 * against (weights by how clearly each episode speaks, `evidenceWeight`). Contradicting episodes are also
 * linked: episode CONTRADICTED fact.
 */
export async function applyCandidates(
  ctx: EngineContext,
  tenant: string,
  accepted: readonly HeuristicCandidate[],
  episodes: ReadonlyMap<string, Episode>,
  rejected = 0,
  relearn: Relearn = () => Promise.resolve(undefined),
): Promise<ExtractionApplied> {
  const out: ExtractionApplied = { created: [], updated: [], revised: [], retired: [], links: [], rejected };
  const now = ctx.clock.now();
  for (const c of accepted) {
    const weightOf = (id: string) => {
      const ep = episodes.get(id);
      return ep ? evidenceWeight(ep) : 0.5;
    };
    const evidence: EvidenceInput[] = [
      ...c.supportingEpisodeIds.map((id) => ({ episodeId: id, polarity: 'support' as const, weight: weightOf(id) })),
      ...c.contradictingEpisodeIds.map((id) => ({ episodeId: id, polarity: 'contradict' as const, weight: weightOf(id) })),
    ];
    let fact = await ctx.storage.getLiveFact(tenant, c.key, now);
    let created = false;
    if (fact && fact.validTo !== undefined && fact.validTo <= now) {
      fact = await relearn(c, fact);
      if (!fact) continue;
      created = true;
    } else if (!fact) {
      fact = (await ctx.storage.putFact(heuristicFact(tenant, c, now))).fact;
      created = true;
    }
    const update = await addEvidence(ctx, tenant, fact, evidence);
    if (!update) continue;
    if (created) out.created.push(update);
    else if (update.revisedFrom) out.revised.push(update);
    else if (update.added.length > 0) out.updated.push(update);
    if (c.contradictingEpisodeIds.length > 0) {
      const links = c.contradictingEpisodeIds.map((id) => makeLink(tenant, 'CONTRADICTED', id, update.liveId, { weight: weightOf(id), evidence: 'extraction', at: now }));
      out.links.push(...(await ctx.storage.putLinks(links)));
    }
  }
  return out;
}

/** Version 1 of a candidate's lineage; `metadata.heuristic.sources` are the episodes it is learned from. */
export function heuristicFact(tenant: string, c: HeuristicCandidate, now: number): Fact {
  const text = statementOf(c.text);
  const stats = initialStats('extraction');
  return {
    id: newId('fact', now),
    key: c.key,
    version: 1,
    tenant,
    kind: 'heuristic',
    text,
    tags: ['heuristic', c.kind],
    pii: false,
    piiReport: { scrubbed: false, counts: {} },
    metadata: {
      heuristic: { kind: c.kind, method: c.method, conditionTerms: c.conditionTerms, causeTerms: c.causeTerms, usefulness: c.usefulness.score, sources: [...c.supportingEpisodeIds] },
    },
    confidence: stats.confidence,
    supportCount: 0,
    contradictCount: 0,
    importance: 0.7,
    validFrom: now,
    recordedAt: now,
    contentHash: contentHash(text),
    provenance: { origin: 'extraction', episodeIds: [...c.supportingEpisodeIds], note: `${c.method} extractor (${c.kind})` },
  };
}

