/**
 * What clusters of closed episodes share, for the heuristic extractor (extract.ts): each episode's word sets,
 * the clustering by cause, and the statistics that pick a cluster's condition and cause words and the member
 * whose words phrase them.
 */
import { parseCorrection, statedText } from './cues.js';
import type { ExtractionEpisode } from './extract.js';
import type { ExtractOptions } from './options.js';
import { contentTerms, intersectionSize, isGenericStem, isNumberLike, overlapCoefficient, specificStems, type Term } from './text.js';
import { isDiagnosticStem } from './usefulness.js';
import { cosine } from './vector.js';

/** Per-episode word sets, computed once. */
export interface Prepared {
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

export function prepare(ep: ExtractionEpisode): Prepared {
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

export function sameCause(a: Prepared, b: Prepared, opts: ExtractOptions): boolean {
  if (a.ep.causeVector && b.ep.causeVector && cosine(a.ep.causeVector, b.ep.causeVector) >= opts.causeCosine) return true;
  if (intersectionSize(a.cause, b.cause) < opts.minSharedCauseTerms) return false;
  return overlapCoefficient(a.cause, b.cause) >= opts.causeOverlap || intersectionSize(a.causePairs, b.causePairs) > 0;
}

/** Greedy, order-stable clustering: join the first cluster where most members share the cause. */
export function clusterByCause(items: readonly Prepared[], opts: ExtractOptions): Prepared[][] {
  const clusters: Prepared[][] = [];
  for (const item of items) {
    const home = clusters.find((c) => c.filter((m) => sameCause(m, item, opts)).length * 2 >= c.length);
    if (home) home.push(item);
    else clusters.push([item]);
  }
  return clusters;
}

/**
 * Words of the look-alikes' reports that separate them from the cluster: in at least half of the seeds and at
 * most a quarter of the cluster, ranked by how much more often other-cause reports have them than the
 * cluster's reports do. Words at least two other-cause episodes share are kept when any exist — they
 * generalise; a word only one report has (a service name) does not. With `group` (the episodes akin to the
 * seeds' causes) and `rest` (every other episode), a word must also be in more of the group's reports than of the
 * rest's: a word the tenant's other reports have as often ("run", "since") would make the rule fire on them.
 */
export function separatingTerms(
  seeds: readonly Prepared[],
  others: readonly Prepared[],
  cluster: readonly Prepared[],
  discriminate?: { group: readonly Prepared[]; rest: readonly Prepared[] },
): string[] {
  const inSeeds = shareOf(seeds, (p) => p.situation);
  const inCluster = shareOf(cluster, (p) => p.situation);
  const ranked = [...inSeeds]
    .filter(([t, share]) => share >= 0.5 && (inCluster.get(t) ?? 0) <= 0.25)
    .filter(([t]) => !discriminate || countOf(discriminate.group, t) > countOf(discriminate.rest, t))
    .map(([t]) => ({ t, n: others.filter((p) => p.situation.has(t)).length, inCluster: inCluster.get(t) ?? 0 }))
    .sort((a, b) => b.n / others.length - b.inCluster - (a.n / others.length - a.inCluster) || b.n - a.n || a.t.localeCompare(b.t));
  const shared = ranked.filter((x) => x.n >= 2);
  return (shared.length > 0 ? shared : ranked).map((x) => x.t);
}

/** How many of the episodes' reports (situations) have the word. */
function countOf(items: readonly Prepared[], t: string): number {
  return items.filter((p) => p.situation.has(t)).length;
}

/** Terms present in at least `share` of the sets (and in at least two of them when there are two or more). */
export function sharedTerms(sets: readonly Set<string>[], share: number): Set<string> {
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
export function conditionOf(cluster: readonly Prepared[], outside: readonly Prepared[], opts: ExtractOptions): string[] {
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

export function matchShare(have: Set<string>, need: Set<string>): number {
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
export function headClause(rootCause: string, stems: ReadonlySet<string>, members: readonly Prepared[]): string {
  const head = rootCause.split(/\s*(?::|;|\s[—–-]\s)\s*/)[0] ?? rootCause;
  if (head.length === rootCause.length) return rootCause;
  const weight = (t: string) =>
    [...new Set(contentTerms(t).map((x) => x.stem))].filter((x) => stems.has(x)).reduce((sum, x) => sum + members.filter((m) => m.cause.has(x)).length, 0);
  return weight(head) > 0 && weight(head) * 2 >= weight(rootCause) ? head : rootCause;
}

/** The member whose cause overlaps the others' most (the earliest on ties). */
export function typical(cluster: readonly Prepared[]): Prepared {
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
export function compactest(cluster: readonly Prepared[], stems: Set<string>): Prepared {
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
