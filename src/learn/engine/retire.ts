/**
 * Retiring learned rules on storage (the verdict is ../retire.ts). A retired lineage gets a closing version: the
 * rule's claim with " Retired: <why>", valid from and to the moment it was retired (so it holds nowhere), which
 * supersedes the live version — storage closes that one's validity (`validTo`) then. Nothing is overwritten:
 * `factHistory` shows the rule as it was, valid until its retirement, and the closing version, whose
 * `metadata.retired` records the reason, the counts and the episodes that went against it. Reads leave a fact
 * whose validity has ended out (read/time-travel.ts `factHolds`); a read `asOf` an earlier time still sees the
 * rule as it was then.
 *
 * A retired lineage takes no more evidence (facts.ts `addEvidence`). It is learned again only when extraction
 * produces its key with another condition, and that condition passes the same trial (`relearnRule`): the stable
 * key names the cause, so a cause that returns with a condition that discriminates gets its rule back as a new
 * version of the lineage, while the same condition stays retired.
 */
import { newId } from '../../core/ids.js';
import { contentHash } from '../../core/text.js';
import type { Episode, Fact, JsonObject } from '../../core/types.js';
import type { Prepared } from '../extract-clusters.js';
import type { HeuristicCandidate } from '../extract.js';
import { conditionTrial, retireVerdict, type ConditionTrial, type RetireOptions, type RetireVerdict } from '../retire.js';
import { SAME_CAUSE_COSINE } from '../../read/recurrence.js';
import { SAME_CAUSE_OVERLAP } from '../../read/standout.js';
import { clip, intersectionSize, overlapCoefficient, specificStems } from '../text.js';
import { cosine } from '../vector.js';
import type { EngineContext } from './context.js';
import { loadCauseVectors } from './cause-vectors.js';
import { metaString } from './episode-record.js';
import { claimText, heuristicFact, type FactUpdate } from './facts.js';

const RETIRED_MARK = ' Retired:';

/** Whether a fact version's validity has ended by `now` (a retired rule's closing version, or any closed validity). */
export function validityEnded(f: Pick<Fact, 'validTo'>, now: number): boolean {
  return f.validTo !== undefined && f.validTo <= now;
}

/** What a trial needs of the tenant's closed cases: their report words, causes and cause vectors. */
export interface TrialData {
  episodes: ReadonlyMap<string, Episode>;
  prepared: ReadonlyMap<string, Prepared>;
  vectorOf: (cause: string) => Float32Array | undefined;
  options: RetireOptions;
}

export async function trialData(ctx: EngineContext, episodes: readonly Episode[], prepared: ReadonlyMap<string, Prepared>): Promise<TrialData> {
  const vectors = await loadCauseVectors(ctx, episodes.flatMap((e) => (e.rootCause?.trim() ? [e.rootCause] : [])));
  const c = ctx.settings.confidence;
  return {
    episodes: new Map(episodes.map((e) => [e.id, e])),
    prepared,
    vectorOf: (cause) => vectors.get(cause),
    options: { match: ctx.settings.extract.contradictMatch, minMatched: c.retireMinMatched },
  };
}

/** The rule's condition words (stems) as the extractor stated them; empty when unknown (e.g. an LLM's rule). */
export function conditionTermsOf(f: Pick<Fact, 'metadata'>): string[] {
  const h = f.metadata.heuristic;
  if (!h || typeof h !== 'object' || Array.isArray(h)) return [];
  const terms = (h as JsonObject).conditionTerms;
  return Array.isArray(terms) ? terms.filter((t): t is string => typeof t === 'string') : [];
}

/** The episodes the rule was learned from: its `metadata.heuristic.sources`, else the first version's provenance. */
async function sourcesOf(ctx: EngineContext, tenant: string, f: Fact): Promise<string[]> {
  const h = f.metadata.heuristic;
  const stored = h && typeof h === 'object' && !Array.isArray(h) ? (h as JsonObject).sources : undefined;
  if (Array.isArray(stored)) return stored.filter((s): s is string => typeof s === 'string');
  if (f.version === 1) return [...(f.provenance.episodeIds ?? [])];
  const first = (await ctx.storage.getFactVersions({ tenant, key: f.key }))[0];
  return [...(first?.provenance.episodeIds ?? f.provenance.episodeIds ?? [])];
}

/**
 * The trial of a rule's condition: the closed cases of the window with a known cause recorded since the rule was
 * written (`since`: its lineage's `validFrom`), other than its sources — what the extractor had not seen when it
 * chose the condition — each judged by whether its cause is one of the sources' (`sameCauseBeyond`). Undefined
 * when no source has a known cause.
 */
async function trialOf(ctx: EngineContext, tenant: string, data: TrialData, condition: readonly string[], sources: readonly string[], since: number): Promise<ConditionTrial | undefined> {
  const ids = new Set(sources);
  const stated = new Set(condition);
  const missing = sources.filter((id) => !data.episodes.has(id));
  const loaded = missing.length > 0 ? await ctx.storage.getEpisodes(tenant, missing) : [];
  const sourceCauses = [...sources.flatMap((id) => data.episodes.get(id) ?? []), ...loaded].flatMap((e) => (e.rootCause?.trim() ? [e.rootCause] : []));
  if (sourceCauses.length === 0) return undefined;
  const cases = [...data.episodes.values()].flatMap((e) => {
    const p = data.prepared.get(e.id);
    if (ids.has(e.id) || !p || !e.rootCause?.trim() || e.recordedAt <= since) return [];
    const cause = e.rootCause;
    return [{ id: e.id, report: p.situation, sameCause: sourceCauses.some((s) => sameCauseBeyond(s, cause, stated, data.vectorOf)) }];
  });
  return conditionTrial(stated, cases, data.options.match);
}

/**
 * read/recurrence.ts `sameCause` with the condition's words left out of both causes (as outcome credit does,
 * reinforce.ts `claimOf`): a word every report has is in many causes too ("the child" of every family plan), and
 * sharing it says nothing about which cause it was. Most of the shorter cause's remaining specific words, or cause
 * vectors at least SAME_CAUSE_COSINE close.
 */
export function sameCauseBeyond(a: string, b: string, condition: ReadonlySet<string>, vectorOf: (cause: string) => Float32Array | undefined): boolean {
  const sa = new Set([...specificStems(a)].filter((t) => !condition.has(t)));
  const sb = new Set([...specificStems(b)].filter((t) => !condition.has(t)));
  if (intersectionSize(sa, sb) >= 2 && overlapCoefficient(sa, sb) >= SAME_CAUSE_OVERLAP) return true;
  const va = vectorOf(a);
  const vb = vectorOf(b);
  return va !== undefined && vb !== undefined && cosine(va, vb) >= SAME_CAUSE_COSINE;
}

/**
 * Puts every live learned rule (kind heuristic, from extraction or consolidation) on trial and retires those that
 * fail (closing version, see the module comment). Returns one update per retired rule.
 */
export async function retireRules(ctx: EngineContext, tenant: string, data: TrialData): Promise<RuleRetirement[]> {
  if (!ctx.settings.confidence.retire) return [];
  const now = ctx.clock.now();
  const rules = (await ctx.storage.listFacts({ tenant, kinds: ['heuristic'], now })).filter(
    (f) => f.provenance.origin === 'extraction' || f.provenance.origin === 'consolidation',
  );
  const out: RuleRetirement[] = [];
  for (const rule of rules) {
    const condition = conditionTermsOf(rule);
    const since = rule.validFrom ?? rule.recordedAt;
    const trial = condition.length > 0 ? await trialOf(ctx, tenant, data, condition, await sourcesOf(ctx, tenant, rule), since) : undefined;
    const verdict = trial && retireVerdict(trial, data.options);
    if (!verdict) continue;
    const { fact: closing } = await ctx.storage.putFact(closingVersion(rule, verdict, data, now));
    out.push({
      factId: rule.id,
      key: rule.key,
      liveId: closing.id,
      version: closing.version,
      confidenceBefore: rule.confidence,
      confidence: closing.confidence,
      supportCount: closing.supportCount,
      contradictCount: closing.contradictCount,
      added: [],
      revisedFrom: rule.id,
      reason: verdict.reason,
    });
  }
  return out;
}

export type RuleRetirement = FactUpdate & { reason: RetireVerdict['reason'] };

/**
 * A new version for a retired lineage that extraction produced again, or undefined when it stays retired (the
 * condition it was produced with is the one it was retired with). The extractor chose the new condition for
 * telling the cause's cases from the others it has; from its `validFrom` on, the new version is on trial too.
 */
export async function relearnRule(ctx: EngineContext, tenant: string, c: HeuristicCandidate, retired: Fact): Promise<Fact | undefined> {
  const before = new Set(conditionTermsOf(retired));
  if (c.conditionTerms.length === 0 || (c.conditionTerms.length === before.size && c.conditionTerms.every((t) => before.has(t)))) return undefined;
  const now = ctx.clock.now();
  const fresh = heuristicFact(tenant, c, now);
  const next: Fact = {
    ...fresh,
    version: retired.version + 1,
    supersedes: retired.id,
    provenance: { ...fresh.provenance, note: `${fresh.provenance.note ?? 'extractor'}; learned again after its retirement, with another condition` },
  };
  return (await ctx.storage.putFact(next)).fact;
}

function closingVersion(rule: Fact, v: RetireVerdict, data: TrialData, now: number): Fact {
  const against = v.trial.matchedOther;
  const text = retiredText(rule.text, v, against.map((id) => data.episodes.get(id)).find((e) => e !== undefined));
  const retired: JsonObject = {
    reason: v.reason,
    at: now,
    matchedSameCause: v.trial.matchedSame,
    matchedOtherCause: v.trial.matchedOther,
    casesOfItsCause: v.trial.same,
    casesOfOtherCauses: v.trial.other,
  };
  return {
    ...rule,
    id: newId('fact', now),
    version: rule.version + 1,
    supersedes: rule.id,
    text,
    contentHash: contentHash(text),
    metadata: { ...rule.metadata, retired, retiredFrom: rule.id },
    validFrom: now,
    validTo: now,
    recordedAt: now,
    expiredAt: undefined,
    provenance: {
      ...rule.provenance,
      episodeIds: [...new Set([...(rule.provenance.episodeIds ?? []), ...against])],
      note: `retired: ${v.reason.replace(/_/g, ' ')}`,
    },
  };
}

/** "<claim> Retired: its condition was met by 3 report(s) of other causes and 1 of its own, e.g. <situation> (root cause: <cause>)." */
export function retiredText(text: string, v: RetireVerdict, example?: Episode): string {
  const claim = claimText(text);
  const situation = example ? (metaString(example.metadata, 'situation') ?? example.summary) : undefined;
  const e = example ? `, e.g. ${clip(situation ?? '', 100)}${example.rootCause ? ` (root cause: ${clip(example.rootCause, 100)})` : ''}` : '';
  return `${claim}${RETIRED_MARK} its condition was met by ${v.trial.matchedOther.length} report(s) of other causes and ${v.trial.matchedSame.length} of its own${e}.`;
}
