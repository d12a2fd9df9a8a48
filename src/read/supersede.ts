/**
 * Superseded cases: a later closed case whose root cause or correction states that an answer was replaced —
 * "<thing> changed|moved|switched (from <old>) to <new>", "<thing> is|are now <new>", "<thing> is|are no longer
 * <old>" — makes the earlier cases of the same cause (recurrence.ts `sameCause`) that still state the old answer
 * stale: their cause names the thing (most of its specific words) but not the new value (or names the old one).
 * They leave the candidates before selection and before the recurrence counts, so a reader (or a decider that
 * votes over every case it is shown) no longer takes the old answer for a live precedent; the context carries a
 * conflict note on the case that replaced them. A learned rule drawn only from superseded cases (every episode of
 * its `provenance.episodeIds`) leaves with them, named in the same note; a rule with any source not superseded
 * (or with none known) stays. Generic English only: no domain's words are read.
 */
import type { Episode } from '../core/types.js';
import { specificStems } from '../learn/text.js';
import type { Candidate, ConflictNote } from './types.js';

/** A stated replacement: what changed, and its new (or its old) value, as specific stems. */
export interface Replacement {
  statement: string;
  thing: Set<string>;
  now?: Set<string> | undefined;
  was?: Set<string> | undefined;
}

const CLAUSE_BREAK = /[.;!?]+(?=\s|$)|[;:\n]|\s[—–]\s/;
const CHANGED = /^(.*?)\b(?:(?:has|have|had|was|were|got)\s+)?(?:changed|moved|switched|shifted)\s+(?:from\s+(.+?)\s+)?to\s+(.+)$/i;
const NOW = /^(.*?)\b(?:is|are)\s+now\s+(.+)$/i;
const NO_LONGER = /^(.*?)\b(?:is|are)\s+no\s+longer\s+(.+)$/i;
/** A value ends where its reason or time begins. */
const VALUE_END = /,|\b(?:after|since|because|so|when|following|as|due)\b/i;
/** Share of the thing's specific words an earlier cause must name. */
const THING_SHARE = 0.6;

function value(text: string): Set<string> {
  return specificStems(text.split(VALUE_END)[0] ?? '');
}

/** The replacements a text states (at most one per clause). */
export function replacementsIn(text: string): Replacement[] {
  const out: Replacement[] = [];
  for (const clause of text.split(CLAUSE_BREAK).map((c) => c.trim()).filter(Boolean)) {
    const changed = CHANGED.exec(clause);
    const now = changed ? null : NOW.exec(clause);
    const gone = changed || now ? null : NO_LONGER.exec(clause);
    const thing = specificStems((changed?.[1] ?? now?.[1] ?? gone?.[1] ?? '').split(',').at(-1)!);
    if (thing.size === 0) continue;
    if (changed) out.push({ statement: clause, thing, now: value(changed[3]!), ...(changed[2] ? { was: value(changed[2]) } : {}) });
    else if (now) out.push({ statement: clause, thing, now: value(now[2]!) });
    else if (gone) out.push({ statement: clause, thing, was: value(gone[2]!) });
  }
  return out.filter((r) => (r.now?.size ?? 0) > 0 || (r.was?.size ?? 0) > 0);
}

/** Whether an earlier cause still states the answer the replacement says no longer holds. */
export function statesReplaced(cause: string, r: Replacement): boolean {
  const stems = specificStems(cause);
  const named = [...r.thing].filter((s) => stems.has(s)).length;
  if (named === 0 || named < THING_SHARE * r.thing.size) return false;
  if (r.now && r.now.size > 0 && [...r.now].some((s) => stems.has(s))) return false;
  if (r.was && r.was.size > 0 && ![...r.was].some((s) => stems.has(s))) return false;
  return true;
}

/** What a closed case states as replaced: its root cause's and its corrections' replacements. */
function replacementsOf(ep: Episode): Replacement[] {
  return [ep.rootCause ?? '', ...ep.corrections].flatMap(replacementsIn);
}

export interface Superseded {
  /** Earlier case id → the later case that replaced its answer. */
  by: Map<string, { id: string; statement: string }>;
}

/**
 * Which of the cases are superseded: for each case (newest first) that states a replacement, the earlier cases
 * of its cause (`sameCauseAs`) whose cause states the replaced answer. A superseding case is never itself
 * superseded by an earlier one.
 */
export function supersededCases(episodes: readonly Episode[], sameCauseAs: (a: string, b: string) => boolean): Superseded {
  const by = new Map<string, { id: string; statement: string }>();
  const newestFirst = [...episodes].sort((a, b) => b.endTs - a.endTs);
  for (const later of newestFirst) {
    if (by.has(later.id)) continue;
    const stated = replacementsOf(later);
    if (stated.length === 0 || !later.rootCause) continue;
    // The cause's earlier cases: the later case's own, then (one step at a time) those of the cases it replaced —
    // look-alike causes are not transitive (recurrence.ts), but an answer replaced in one phrasing is in another.
    const replaced = [later.id];
    for (let grew = true; grew; ) {
      grew = false;
      for (const earlier of newestFirst) {
        if (earlier.endTs >= later.endTs || by.has(earlier.id) || !earlier.rootCause) continue;
        if (!replaced.some((id) => sameCauseAs(id, earlier.id))) continue;
        const r = stated.find((x) => statesReplaced(earlier.rootCause!, x));
        if (!r) continue;
        by.set(earlier.id, { id: later.id, statement: r.statement });
        replaced.push(earlier.id);
        grew = true;
      }
    }
  }
  return { by };
}

const LEARNED: ReadonlySet<string> = new Set(['heuristic', 'insight']);

/**
 * The case that took the place of a learned rule's sources, when every one of the rule's source episodes
 * (`provenance.episodeIds`) left the candidates (`leftFor` names the case each left for, or undefined for a source
 * that stays); undefined for any other candidate (a rule with a live or unknown source, a stated fact, a case).
 * The read steps that drop cases (supersede.ts, overturned.ts) drop the rules drawn only from them with this.
 */
export function ruleLeavingWith(c: Pick<Candidate, 'doc' | 'fact'>, leftFor: (episodeId: string) => string | undefined): string | undefined {
  const f = c.fact;
  if (c.doc.kind !== 'fact' || !f || !LEARNED.has(f.kind)) return undefined;
  const sources = f.provenance.episodeIds ?? [];
  if (sources.length === 0 || !sources.every((id) => leftFor(id) !== undefined)) return undefined;
  return leftFor(sources[0]!);
}

/** The learned rules among the candidates whose sources all left, each with the case they left for. */
export function rulesLeavingWith(candidates: readonly Candidate[], leftFor: (episodeId: string) => string | undefined): Map<string, string> {
  return new Map(
    candidates.flatMap((c) => {
      const by = ruleLeavingWith(c, leftFor);
      return by ? [[c.doc.refId, by] as const] : [];
    }),
  );
}

/** " (and N learned rule(s) drawn only from them)" for a conflict note, or nothing. */
export function rulesPhrase(k: number): string {
  return k > 0 ? ` (and ${k} learned rule${k > 1 ? 's' : ''} drawn only from them)` : '';
}

/**
 * The case that replaced the answer a learned rule was drawn from, when every one of the rule's source episodes
 * (`provenance.episodeIds`) is superseded; undefined for any other candidate (a rule with a live or unknown source).
 */
export function supersededRuleBy(c: Pick<Candidate, 'doc' | 'fact'>, s: Superseded): string | undefined {
  return ruleLeavingWith(c, (id) => s.by.get(id)?.id);
}

/**
 * The candidates without the superseded cases and the rules drawn only from them; each replacing case carries what
 * it replaced (for the note).
 */
export function withoutSuperseded(candidates: readonly Candidate[], s: Superseded): Candidate[] {
  if (s.by.size === 0) return [...candidates];
  const final = new Map(candidates.map((c) => [c.doc.refId, c.scores.final]));
  const rules = rulesLeavingWith(candidates, (id) => s.by.get(id)?.id);
  return candidates
    .filter((c) => !s.by.has(c.doc.refId) && !rules.has(c.doc.refId))
    .map((c) => {
      const olds = [...s.by].filter(([, v]) => v.id === c.doc.refId);
      if (olds.length === 0) return c;
      // The live version of the answer stands where its best stale version stood.
      const best = Math.max(c.scores.final, ...olds.map(([id]) => final.get(id) ?? 0));
      const ruleIds = [...rules].filter(([, by]) => by === c.doc.refId).map(([id]) => id);
      const replaced = { ids: olds.map(([id]) => id), statement: olds[0]![1].statement, ...(ruleIds.length > 0 ? { rules: ruleIds } : {}) };
      const lift = best - c.scores.final;
      return { ...c, scores: { ...c.scores, ...(lift > 0 ? { superseded: lift } : {}), final: best }, replaced };
    });
}

/** The earlier cases a shown case left out, and the learned rules drawn only from them. */
export interface LeftOutCases {
  ids: readonly string[];
  rules?: readonly string[] | undefined;
}

/**
 * The conflict note of a shown case that left out earlier cases (and their rules): `says` words it from
 * "N earlier case(s)" and the rules phrase (rulesPhrase).
 */
export function leftOutNote(c: Candidate, out: LeftOutCases, says: (cases: string, rules: string) => string): ConflictNote {
  const n = out.ids.length;
  const dropped = [...out.ids, ...(out.rules ?? [])];
  return {
    reason: 'superseded_case',
    action: 'preferred',
    itemIds: [c.doc.refId, ...dropped],
    droppedIds: dropped,
    note: says(`${n} earlier case${n > 1 ? 's' : ''}`, rulesPhrase(out.rules?.length ?? 0)),
  };
}

/** One note per shown replacing case: how many earlier cases it replaced, and its statement. */
export function supersededNotes(shown: readonly Candidate[]): ConflictNote[] {
  return shown.flatMap((c) => {
    const r = c.replaced;
    if (!r) return [];
    return [leftOutNote(c, r, (cases, rules) => `${cases} of this cause${rules} left out as superseded: a later case states "${r.statement}".`)];
  });
}
