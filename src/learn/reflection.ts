/**
 * Importance-triggered reflection (Generative Agents): every new event adds its importance (0..1) to a running
 * sum per stream (default: tenant + agent); when the sum reaches `importanceThreshold` (15, i.e. their 150 on a
 * 1–10 scale) a reflection request over the most recent `windowSize` events is issued and the sum restarts.
 *
 * A `Reflector` turns the window into insights that carry the ids of their evidence. `HeuristicReflector`
 * looks for what recurs: named things (hyphenated/dotted identifiers, capitalised names, tools) that appear in
 * at least `minRecurrence` events, with how those events went; runs of failed outcomes and what they share;
 * repeated corrections and what they corrected. `LlmReflector` (reflection-llm.ts) asks a model instead.
 */
import type { MemoryEvent } from '../core/types.js';
import { classifyOutcome, explicitOutcome, parseCorrection } from './cues.js';
import { parseLearnOptions, type ReflectionOptions } from './options.js';
import { contentTerms, isGenericStem, isNumberLike, stripLabel, surfaceTokens, tidy } from './text.js';

export type ReflectionEvent = Pick<MemoryEvent, 'id' | 'seq' | 'ts' | 'type' | 'content' | 'importance' | 'tenant'> &
  Partial<Pick<MemoryEvent, 'metadata' | 'tool' | 'agentId' | 'userId' | 'sessionId' | 'taskId'>>;

export interface ReflectionRequest {
  key: string;
  /** The window to reflect on, oldest first. */
  eventIds: string[];
  fromSeq: number;
  toSeq: number;
  /** Importance accumulated since the previous reflection. */
  importanceSum: number;
  /** The event that crossed the threshold. */
  triggeredBy: string;
}

export interface TriggerState {
  key: string;
  sum: number;
  window: Array<{ id: string; seq: number }>;
}

export function defaultReflectionKey(e: Pick<ReflectionEvent, 'tenant' | 'agentId'>): string {
  return JSON.stringify([e.tenant, e.agentId ?? null]);
}

export class ReflectionTrigger {
  readonly options: ReflectionOptions;
  private readonly keyOf: (e: ReflectionEvent) => string;
  private readonly states = new Map<string, TriggerState>();

  constructor(options?: unknown, hooks: { key?: (e: ReflectionEvent) => string } = {}) {
    this.options = parseLearnOptions('reflection', options);
    this.keyOf = hooks.key ?? defaultReflectionKey;
  }

  static restore(states: readonly TriggerState[], options?: unknown, hooks?: { key?: (e: ReflectionEvent) => string }): ReflectionTrigger {
    const t = new ReflectionTrigger(options, hooks);
    for (const s of states) t.states.set(s.key, { key: s.key, sum: s.sum, window: s.window.map((w) => ({ ...w })) });
    return t;
  }

  /** Counts one event; returns a request when this event makes the importance sum reach the threshold. */
  observe(event: ReflectionEvent): ReflectionRequest | undefined {
    const key = this.keyOf(event);
    const st = this.states.get(key) ?? { key, sum: 0, window: [] };
    this.states.set(key, st);
    st.sum += clamp01(event.importance);
    st.window.push({ id: event.id, seq: event.seq });
    if (st.window.length > this.options.windowSize) st.window.splice(0, st.window.length - this.options.windowSize);
    if (st.sum < this.options.importanceThreshold) return undefined;
    const request: ReflectionRequest = {
      key,
      eventIds: st.window.map((w) => w.id),
      fromSeq: st.window[0]!.seq,
      toSeq: st.window.at(-1)!.seq,
      importanceSum: Math.round(st.sum * 1000) / 1000,
      triggeredBy: event.id,
    };
    st.sum = 0;
    return request;
  }

  /** Importance accumulated since the last reflection of a stream. */
  pending(key: string): number {
    return this.states.get(key)?.sum ?? 0;
  }

  state(): TriggerState[] {
    return [...this.states.values()].map((s) => ({ ...s, window: s.window.map((w) => ({ ...w })) }));
  }
}

export type InsightKind = 'recurring_entity' | 'recurring_outcome' | 'repeated_correction' | 'llm';

export interface Insight {
  kind: InsightKind;
  text: string;
  /** Ids of the events the insight rests on. */
  evidenceIds: string[];
  /** 0..1: the mean importance of its evidence. */
  importance: number;
}

export interface Reflector {
  readonly name: string;
  reflect(events: readonly ReflectionEvent[], opts?: { signal?: AbortSignal }): Promise<Insight[]>;
}

export class HeuristicReflector implements Reflector {
  readonly name = 'heuristic';
  private readonly options: ReflectionOptions;
  constructor(options?: unknown) {
    this.options = parseLearnOptions('reflection', options);
  }
  reflect(events: readonly ReflectionEvent[]): Promise<Insight[]> {
    return Promise.resolve(reflectHeuristically(events, this.options));
  }
}

export function reflectHeuristically(events: readonly ReflectionEvent[], options?: unknown): Insight[] {
  const opts = parseLearnOptions('reflection', options);
  const insights = [...outcomeInsights(events), ...correctionInsights(events), ...entityInsights(events, opts)];
  // Most evidence first; ties keep the order above (outcomes, corrections, entities).
  return insights
    .map((insight, i) => ({ insight, i }))
    .sort((a, b) => b.insight.evidenceIds.length - a.insight.evidenceIds.length || a.i - b.i)
    .slice(0, opts.maxInsights)
    .map((x) => x.insight);
}

/** Outcomes and corrections are rarer and weigh more than mentions: two of a kind already make a pattern. */
const REPEATS = 2;

type Label = 'SUCCESS' | 'FAILURE' | 'PARTIAL' | 'UNKNOWN';

function outcomeLabel(e: ReflectionEvent): Label | undefined {
  const explicit = explicitOutcome(e.metadata);
  if (explicit) return explicit;
  return e.type === 'outcome' ? classifyOutcome(e.content) : undefined;
}

/** A run of failures (or successes) and the specific terms most of them share. */
function outcomeInsights(events: readonly ReflectionEvent[]): Insight[] {
  const labelled = events.map((e) => ({ e, label: outcomeLabel(e) })).filter((x) => x.label !== undefined);
  const out: Insight[] = [];
  for (const [label, verb] of [
    ['FAILURE', 'failed'],
    ['SUCCESS', 'succeeded'],
  ] as const) {
    const hits = labelled.filter((x) => x.label === label).map((x) => x.e);
    if (hits.length < REPEATS) continue;
    const shared = sharedSurfaces(hits, 0.5);
    out.push({
      kind: 'recurring_outcome',
      text: `${hits.length} of the last ${labelled.length} outcomes ${verb}${shared.length ? `; they share: ${shared.slice(0, 5).join(', ')}` : ''}.`,
      evidenceIds: hits.map((e) => e.id),
      importance: meanImportance(hits),
    });
  }
  return out;
}

/** Corrections that keep coming, and what was believed each time. */
function correctionInsights(events: readonly ReflectionEvent[]): Insight[] {
  const corrections = events.filter((e) => e.type === 'correction');
  if (corrections.length < REPEATS) return [];
  const mistaken = [...new Set(corrections.map((e) => parseCorrection(e.content).mistaken).filter((m): m is string => Boolean(m)))];
  const shared = sharedSurfaces(corrections, 0.5);
  const parts = [
    `Corrected ${corrections.length} times recently`,
    ...(mistaken.length ? [`believed instead: ${mistaken.slice(0, 3).map(tidy).join('; ')}`] : []),
    ...(shared.length ? [`the corrections share: ${shared.slice(0, 5).join(', ')}`] : []),
  ];
  return [{ kind: 'repeated_correction', text: `${parts.join('; ')}.`, evidenceIds: corrections.map((e) => e.id), importance: meanImportance(corrections) }];
}

/** Named things that recur, with how the events that mention them went. */
function entityInsights(events: readonly ReflectionEvent[], opts: ReflectionOptions): Insight[] {
  const mentions = new Map<string, { surface: string; events: ReflectionEvent[] }>();
  for (const e of events) {
    for (const name of entitiesOf(e)) {
      const k = name.toLowerCase();
      const m = mentions.get(k) ?? { surface: name, events: [] };
      if (!m.events.includes(e)) m.events.push(e);
      mentions.set(k, m);
    }
  }
  const out: Insight[] = [];
  for (const { surface, events: evs } of mentions.values()) {
    if (evs.length < opts.minRecurrence) continue;
    const labels = evs.map(outcomeLabel);
    const failed = labels.filter((l) => l === 'FAILURE').length;
    const succeeded = labels.filter((l) => l === 'SUCCESS').length;
    const errors = evs.filter((e) => e.type === 'error').length;
    const corrected = evs.filter((e) => e.type === 'correction').length;
    const tally = [
      failed && `${failed} failed outcome${failed > 1 ? 's' : ''}`,
      succeeded && `${succeeded} successful outcome${succeeded > 1 ? 's' : ''}`,
      errors && `${errors} error${errors > 1 ? 's' : ''}`,
      corrected && `${corrected} correction${corrected > 1 ? 's' : ''}`,
    ].filter(Boolean);
    const own = new Set(contentTerms(surface).map((t) => t.stem));
    const together = sharedSurfaces(evs, 0.5).filter((w) => !own.has(contentTerms(w)[0]?.stem ?? w.toLowerCase()));
    out.push({
      kind: 'recurring_entity',
      text: `${surface} recurs in ${evs.length} recent events${tally.length ? ` (${tally.join(', ')})` : ''}${together.length ? `, usually with ${together.slice(0, 4).join(', ')}` : ''}.`,
      evidenceIds: evs.map((e) => e.id),
      importance: meanImportance(evs),
    });
  }
  return out;
}

const IDENTIFIER_RE = /\b[\p{L}\p{N}]+(?:[-_./:][\p{L}\p{N}]+)+\b/gu;

/**
 * Name-like tokens: identifiers with inner punctuation (`checkout-api`, `orders_db`, `v2.4.1`), capitalised
 * words that do not start a sentence, and the tool an event called.
 */
export function entitiesOf(e: Pick<ReflectionEvent, 'content' | 'tool'>): string[] {
  const out = new Set<string>();
  const text = stripLabel(e.content, ['outcome', 'correction', 'result', 'decision']);
  for (const m of text.matchAll(IDENTIFIER_RE)) if (!/^\d+([./:]\d+)*$/.test(m[0])) out.add(m[0]);
  const words = text.split(/\s+/);
  words.forEach((w, i) => {
    const bare = w.replace(/^[^\p{L}]+|[^\p{L}\p{N}]+$/gu, '');
    const startsSentence = i === 0 || /[.!?:]$/.test(words[i - 1]!);
    if (!startsSentence && /^\p{Lu}[\p{L}\p{N}]+$/u.test(bare) && !isGenericStem(bare.toLowerCase())) out.add(bare);
  });
  if (e.tool) out.add(e.tool);
  return [...out];
}

/** Specific words in at least `share` of the events (and at least two), as first written. */
function sharedSurfaces(events: readonly ReflectionEvent[], share: number): string[] {
  const counts = new Map<string, { n: number; surface: string; first: number }>();
  events.forEach((e, order) => {
    const terms = contentTerms(stripLabel(e.content, ['outcome', 'correction', 'result']));
    const surface = surfaceTokens(stripLabel(e.content, ['outcome', 'correction', 'result']));
    const seen = new Set<string>();
    for (const t of terms) {
      if (seen.has(t.stem) || isGenericStem(t.stem) || isNumberLike(t.stem)) continue;
      seen.add(t.stem);
      const c = counts.get(t.stem) ?? { n: 0, surface: surface[t.index] ?? t.surface, first: order * 1000 + t.index };
      c.n++;
      counts.set(t.stem, c);
    }
  });
  const need = Math.max(2, Math.ceil(share * events.length));
  return [...counts.values()]
    .filter((c) => c.n >= need)
    .sort((a, b) => b.n - a.n || a.first - b.first)
    .map((c) => c.surface);
}

function meanImportance(events: readonly ReflectionEvent[]): number {
  if (events.length === 0) return 0;
  return Math.round((events.reduce((s, e) => s + clamp01(e.importance), 0) / events.length) * 1000) / 1000;
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
