/**
 * Conflict notes (seed 000: "prefer the fresher episodic facts; if they clash with semantic policy, show both
 * with a short resolution note").
 *
 * Detection (pure, heuristic, deliberately conservative — a missed conflict costs less than a false one):
 *   same_key               two facts of one lineage (`fact.key`, or `metadata.key`) with different text;
 *   same_subject_predicate two facts with equal subject and predicate but a different value — unless the
 *                          predicate is multi-valued (core/predicates.ts: "speaks French" does not contradict
 *                          "speaks English"). Subject, predicate and value come from the fact's fields, or, for a
 *                          plain-text fact, from the one statement its text makes when the deterministic patterns
 *                          read one (learn/fact-patterns.ts: "Erin lives in Berlin." → Erin / lives_in / Berlin);
 *   fresher_episodic       an event newer than a fact that it revises on the fact's subject: either the event
 *                          states it structurally (metadata subject/predicate/value with another value) or it is
 *                          a correction / uses a revision cue ("no longer", "switched to", "instead" …) while
 *                          mentioning the fact's subject and its predicate or value, or its text states another
 *                          value of the fact's single-valued subject + predicate ("Erin moved to Munich").
 * Resolution by `conflict_resolution`:
 *   prefer_fresh_episodic_else_surface_both_with_note (default)
 *       event vs fact → keep the event, drop the fact, note it — unless the fact is policy (tag `policy`):
 *       then keep both with a note; fact vs fact → keep both with a note naming the fresher.
 *   prefer_fresh            keep only the fresher side of every conflict, with a note.
 *   surface_both_with_note  never drop; always note.
 * A `ConflictJudge` (e.g. an LLM) may confirm or overrule each detected pair before resolution.
 */
import type { ContextConfig } from '../core/config.js';
import type { Json } from '../core/types.js';
import { normalizePredicate, strategyFor, type FactPolicy } from '../core/predicates.js';
import { readStatements, resolveSubject } from '../learn/fact-patterns.js';
import { words } from './text.js';
import type { Candidate, ConflictAction, ConflictNote, ConflictReason } from './types.js';

export type ConflictPolicy = ContextConfig['conflict_resolution'];

export interface DetectedConflict {
  reason: ConflictReason;
  /** Index (into the candidate list) of the fresher item. */
  fresher: number;
  /** Index of the older item. */
  older: number;
}

export interface JudgeVerdict {
  /** False: not a real contradiction, no note. */
  contradicts: boolean;
  /** Record id to keep alone; omitted to keep both. */
  prefer?: string | undefined;
  note?: string | undefined;
}

/** Optional second opinion on a detected pair (an LLM judge). Return undefined to leave it to the rules. */
export type ConflictJudge = (
  input: { query: string; reason: ConflictReason; fresher: { id: string; text: string; ts: number }; older: { id: string; text: string; ts: number } },
) => Promise<JudgeVerdict | undefined>;

const REVISION_CUES = [
  'no longer', 'not anymore', 'any more', 'instead', 'switched', 'switch to', 'changed', 'replaced', 'moved to',
  'migrated to', 'now uses', 'now use', 'deprecated', 'actually', 'incorrect', 'wrong', 'not true', 'is not',
  "isn't", 'was not', "wasn't", 'no more', 'stopped', 'rather than', 'correction',
];
const CUE_RE = new RegExp(`\\b(?:${REVISION_CUES.map((c) => c.replace(/ /g, '\\s+')).join('|')})\\b`, 'i');

interface FactView {
  key?: string | undefined;
  subject?: string | undefined;
  predicate?: string | undefined;
  value?: string | undefined;
}

function metaString(meta: Record<string, Json> | undefined, name: string): string | undefined {
  const v = meta?.[name];
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/**
 * The one statement a short text makes (fact-patterns.ts), as subject / predicate / value; a first-person
 * subject is the record's user. Undefined when the text makes none or several (not reliable enough).
 */
export function statedTriple(text: string, who: { userId?: string | undefined; name?: string | undefined }): Omit<FactView, 'key'> | undefined {
  if (text.length > 300) return undefined;
  const found = readStatements(text);
  if (found.length !== 1) return undefined;
  const st = found[0]!;
  return { subject: resolveSubject(st, who), predicate: st.predicate, value: st.value };
}

/** Key, subject, predicate and value of a fact candidate, from the loaded fact or its metadata, else its text. */
export function factView(c: Candidate): FactView | undefined {
  if (c.doc.kind !== 'fact') return undefined;
  const meta = c.doc.metadata;
  const view: FactView = {
    key: c.fact?.key ?? metaString(meta, 'key'),
    subject: c.fact?.subject ?? metaString(meta, 'subject'),
    predicate: c.fact?.predicate ?? metaString(meta, 'predicate'),
    value: c.fact?.value ?? metaString(meta, 'value'),
  };
  if (view.subject && view.predicate && view.value) return view;
  const stated = statedTriple(c.fact?.text ?? c.doc.text, { userId: c.fact?.userId ?? c.doc.userId });
  return stated ? { ...view, ...stated } : view;
}

export interface DetectOptions {
  /** Conflict strategies per predicate: two values of a multi-valued predicate are not a conflict. */
  policy?: FactPolicy | undefined;
}

function norm(s: string | undefined): string | undefined {
  return s === undefined ? undefined : words(s).join(' ') || undefined;
}

/** Light stemming so "deploys" meets "deploy"; enough for a cue match, not a linguistic claim. */
function stem(w: string): string {
  return w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;
}

function stems(text: string): Set<string> {
  return new Set(words(text).map(stem));
}

function mentionsAll(have: Set<string>, phrase: string | undefined): boolean {
  const need = phrase === undefined ? [] : words(phrase).map(stem);
  return need.length > 0 && need.every((w) => have.has(w));
}

function mentionsAny(have: Set<string>, phrase: string | undefined): boolean {
  const need = phrase === undefined ? [] : words(phrase).map(stem).filter((w) => w.length >= 3);
  return need.some((w) => have.has(w));
}

const samePredicate = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && normalizePredicate(a) === normalizePredicate(b);

function factsConflict(a: FactView, b: FactView, aHash: string, bHash: string, opts: DetectOptions): ConflictReason | undefined {
  if (a.key !== undefined && a.key === b.key && aHash !== bHash) return 'same_key';
  const [sa, sb, va, vb] = [norm(a.subject), norm(b.subject), norm(a.value), norm(b.value)];
  if (sa && va && vb && sa === sb && samePredicate(a.predicate, b.predicate) && va !== vb && strategyFor(opts.policy, a.predicate) !== 'multi') {
    return 'same_subject_predicate';
  }
  return undefined;
}

/** Does this (newer) event revise the fact? */
export function eventRevisesFact(event: Candidate, fact: FactView, opts: DetectOptions = {}): boolean {
  const meta = event.doc.metadata;
  const [es, ep, ev] = [metaString(meta, 'subject'), metaString(meta, 'predicate'), metaString(meta, 'value')];
  if (es && ep && ev && fact.subject && fact.predicate) {
    return norm(es) === norm(fact.subject) && norm(ep) === norm(fact.predicate) && norm(ev) !== norm(fact.value);
  }
  if (!fact.subject) return false;
  const text = event.event?.content ?? event.doc.text;
  const stated = fact.predicate && fact.value ? statedTriple(text, { userId: event.event?.userId ?? event.doc.userId, name: event.event?.name }) : undefined;
  if (stated && norm(stated.subject) === norm(fact.subject) && samePredicate(stated.predicate, fact.predicate) && strategyFor(opts.policy, fact.predicate) !== 'multi') {
    return norm(stated.value) !== norm(fact.value);
  }
  const revising = event.doc.type === 'correction' || CUE_RE.test(text);
  if (!revising) return false;
  const have = stems(text);
  return mentionsAll(have, fact.subject) && (mentionsAny(have, fact.predicate) || mentionsAny(have, fact.value));
}

/** Pure detection over the candidate list. Each unordered pair is reported at most once. */
export function detectConflicts(items: readonly Candidate[], opts: DetectOptions = {}): DetectedConflict[] {
  const views = items.map(factView);
  const out: DetectedConflict[] = [];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const [a, b] = [items[i]!, items[j]!];
      const [fa, fb] = [views[i], views[j]];
      const [fresher, older] = isFresher(a, b) ? [i, j] : [j, i];
      if (fa && fb) {
        const reason = factsConflict(fa, fb, a.doc.contentHash, b.doc.contentHash, opts);
        if (reason) out.push({ reason, fresher, older });
        continue;
      }
      const eventIdx = a.doc.kind === 'event' && fb ? i : b.doc.kind === 'event' && fa ? j : -1;
      if (eventIdx < 0) continue;
      const factIdx = eventIdx === i ? j : i;
      const event = items[eventIdx]!;
      const fact = items[factIdx]!;
      if (event.doc.ts > factTime(fact) && eventRevisesFact(event, views[factIdx]!, opts)) {
        out.push({ reason: 'fresher_episodic', fresher: eventIdx, older: factIdx });
      }
    }
  }
  return out;
}

/** When a fact started to hold (or was recorded); events use their own time. */
function factTime(c: Candidate): number {
  return c.fact?.validFrom ?? c.fact?.recordedAt ?? c.doc.ts;
}

function isFresher(a: Candidate, b: Candidate): boolean {
  const [ta, tb] = [a.doc.kind === 'fact' ? factTime(a) : a.doc.ts, b.doc.kind === 'fact' ? factTime(b) : b.doc.ts];
  if (ta !== tb) return ta > tb;
  return a.doc.confidence >= b.doc.confidence;
}

function isPolicy(c: Candidate): boolean {
  return c.doc.tags.includes('policy');
}

function decide(policy: ConflictPolicy, reason: ConflictReason, older: Candidate): ConflictAction {
  if (policy === 'surface_both_with_note') return 'surfaced_both';
  if (policy === 'prefer_fresh') return 'preferred';
  return reason === 'fresher_episodic' && !isPolicy(older) ? 'preferred' : 'surfaced_both';
}

const day = (ts: number): string => new Date(ts).toISOString().slice(0, 10);

function quote(c: Candidate): string {
  const t = c.doc.text.replace(/\s+/g, ' ').trim();
  return `"${t.length > 80 ? `${t.slice(0, 77)}…` : t}"`;
}

function describe(c: Candidate): string {
  const what = c.doc.kind === 'fact' ? (isPolicy(c) ? 'policy' : 'fact') : c.doc.kind;
  return `${what} ${quote(c)} (${day(c.doc.kind === 'fact' ? factTime(c) : c.doc.ts)})`;
}

const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function noteText(reason: ConflictReason, action: ConflictAction, fresher: Candidate, older: Candidate, keptFresher: boolean): string {
  const lead =
    reason === 'fresher_episodic'
      ? `Newer ${describe(fresher)} contradicts ${describe(older)}`
      : `${capitalise(describe(fresher))} and older ${describe(older)} disagree${reason === 'same_key' ? ' (same record, different versions)' : ''}`;
  if (action === 'preferred') return keptFresher ? `${lead}; using the newer one.` : `${lead}; keeping the older one.`;
  return `${lead}; both shown — prefer the newer unless the older is authoritative.`;
}

export interface ResolveResult {
  items: Candidate[];
  notes: ConflictNote[];
}

/**
 * Applies the policy (and any judge verdicts, keyed by the conflict's position in `detected`).
 * Pure: same input, same output. Items keep their order; dropped ones are removed.
 */
export function resolveConflicts(
  items: readonly Candidate[],
  detected: readonly DetectedConflict[],
  policy: ConflictPolicy,
  verdicts: ReadonlyMap<number, JudgeVerdict> = new Map(),
): ResolveResult {
  const dropped = new Set<number>();
  const notes: ConflictNote[] = [];
  detected.forEach((d, n) => {
    const [fresher, older] = [items[d.fresher]!, items[d.older]!];
    const verdict = verdicts.get(n);
    if (verdict && !verdict.contradicts) return;
    let keep = d.fresher;
    let action = decide(policy, d.reason, older);
    if (verdict?.prefer !== undefined) {
      const idx = verdict.prefer === older.doc.refId ? d.older : verdict.prefer === fresher.doc.refId ? d.fresher : -1;
      if (idx >= 0) [keep, action] = [idx, 'preferred' as const];
    }
    const lose = keep === d.fresher ? d.older : d.fresher;
    if (action === 'preferred') dropped.add(lose);
    const [kept, lost] = [items[keep]!, items[lose]!];
    notes.push({
      reason: d.reason,
      action,
      itemIds: [kept.doc.refId, lost.doc.refId],
      droppedIds: action === 'preferred' ? [lost.doc.refId] : [],
      note: verdict?.note ?? noteText(d.reason, action, fresher, older, keep === d.fresher),
    });
  });
  return { items: items.filter((_, i) => !dropped.has(i)), notes };
}

/** Asks the judge about each detected pair (sequentially: judges are usually rate-limited LLM calls). */
export async function judgeConflicts(
  judge: ConflictJudge | undefined,
  query: string,
  items: readonly Candidate[],
  detected: readonly DetectedConflict[],
): Promise<Map<number, JudgeVerdict>> {
  const verdicts = new Map<number, JudgeVerdict>();
  if (!judge) return verdicts;
  for (const [n, d] of detected.entries()) {
    const side = (c: Candidate) => ({ id: c.doc.refId, text: c.doc.text, ts: c.doc.ts });
    const v = await judge({ query, reason: d.reason, fresher: side(items[d.fresher]!), older: side(items[d.older]!) });
    if (v) verdicts.set(n, v);
  }
  return verdicts;
}
