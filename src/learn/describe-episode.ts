/**
 * What an episode was about, from its events: a bounded summary (situation → what was tried → outcome →
 * correction), the outcome label, decisions, assumptions, corrections and the root cause when one is known.
 *
 * `Summarizer` is the seam: `HeuristicSummarizer` (deterministic, the default) and `LlmSummarizer`
 * (describe-episode-llm.ts) return the same record. Explicit metadata (`metadata.outcome`,
 * `metadata.root_cause`, `metadata.assumption`, `metadata.correction`) always wins over what text suggests.
 */
import type { MemoryEvent, Outcome } from '../core/types.js';
import {
  assumptionPhrases,
  classifyOutcome,
  decisionSentences,
  explicitOutcome,
  metadataStrings,
  parseCorrection,
  rootCausePhrase,
} from './cues.js';
import { parseLearnOptions, type DescribeOptions } from './options.js';
import { clip, sentences, stripLabel, tidy } from './text.js';
import { alreadySaid, sayOnce, sentenceCore } from '../core/say-once.js';

/** The fields of an event that describing reads. */
export type DescribeEvent = Pick<MemoryEvent, 'id' | 'type' | 'actor' | 'content'> &
  Partial<Pick<MemoryEvent, 'metadata' | 'importance' | 'tool' | 'seq' | 'ts'>>;

export interface EpisodeDescription {
  summary: string;
  outcome: Outcome;
  /** The outcome event's own words, label stripped. */
  outcomeDetails?: string | undefined;
  decisions: string[];
  assumptions: string[];
  corrections: string[];
  rootCause?: string | undefined;
  /** What the episode started from: the first report-like event. */
  situation?: string | undefined;
  /** 0..1: the most important event, raised for failures and corrections (what an agent must learn from). */
  importance: number;
  method: 'heuristic' | 'llm';
}

export interface Summarizer {
  readonly name: string;
  summarize(events: readonly DescribeEvent[], opts?: { signal?: AbortSignal }): Promise<EpisodeDescription>;
}

/** Types that describe the situation or what was found, as opposed to acting on it. */
const REPORT_TYPES = new Set(['message', 'observation', 'error', 'note', 'feedback', 'tool_result']);

/** The first report-like event's text: what the episode set out to handle. */
export function situationOf(events: readonly DescribeEvent[]): string | undefined {
  const first = events.find((e) => REPORT_TYPES.has(e.type) && e.content.trim()) ?? events.find((e) => e.content.trim());
  return first ? tidy(first.content) : undefined;
}

/** Report-like events after the situation and before the outcome: what investigation found. */
export function findingsOf(events: readonly DescribeEvent[]): string[] {
  const situation = events.find((e) => REPORT_TYPES.has(e.type) && e.content.trim());
  const end = events.findIndex((e) => e.type === 'outcome');
  return events
    .slice(0, end < 0 ? events.length : end)
    .filter((e) => e !== situation && REPORT_TYPES.has(e.type) && e.content.trim())
    .map((e) => tidy(e.content));
}

/** Steps taken: decision events and tool calls, in order, plus "decided to …" sentences from agent messages. */
export function actionsOf(events: readonly DescribeEvent[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    if (e.type === 'decision') out.push(tidy(stripLabel(e.content, ['decision', 'decided', 'plan'])));
    else if (e.type === 'tool_call') out.push(tidy(e.content || e.tool || 'tool call'));
    else if (e.actor === 'agent' && e.type === 'message') out.push(...decisionSentences(e.content));
  }
  return dedupe(out.filter(Boolean));
}

export function outcomeOf(events: readonly DescribeEvent[]): { outcome: Outcome; details?: string | undefined } {
  for (let i = events.length - 1; i >= 0; i--) {
    const explicit = explicitOutcome(events[i]!.metadata);
    if (explicit) return { outcome: explicit, details: events[i]!.type === 'outcome' ? details(events[i]!) : undefined };
  }
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type !== 'outcome') continue;
    const label = classifyOutcome(e.content);
    if (label !== 'UNKNOWN') return { outcome: label, details: details(e) };
  }
  const last = [...events].reverse().find((e) => e.type === 'outcome');
  return { outcome: 'UNKNOWN', details: last ? details(last) : undefined };
}

export function correctionsOf(events: readonly DescribeEvent[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    out.push(...metadataStrings(e.metadata, ['correction', 'corrections']));
    if (e.type === 'correction') out.push(tidy(stripLabel(e.content, ['correction'])));
  }
  return dedupe(out.filter(Boolean));
}

export function assumptionsOf(events: readonly DescribeEvent[], corrections: readonly string[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    out.push(...metadataStrings(e.metadata, ['assumption', 'assumptions']));
    if (e.type !== 'correction') out.push(...assumptionPhrases(e.content));
  }
  // A correction's "not Y" names what was believed; keep it when nothing else said so.
  if (out.length === 0) for (const c of corrections) {
    const mistaken = parseCorrection(c).mistaken;
    if (mistaken) out.push(mistaken);
  }
  return dedupe(out.map(tidy).filter(Boolean));
}

/**
 * Root cause, most trusted first: `metadata.root_cause`/`rootCause`; a "root cause: …" statement in an
 * outcome event, then in any event; what a correction says it "was actually".
 */
export function rootCauseOf(events: readonly DescribeEvent[], corrections: readonly string[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const meta = metadataStrings(events[i]!.metadata, ['root_cause', 'rootCause'])[0];
    if (meta) return tidy(meta);
  }
  const byType = (pred: (e: DescribeEvent) => boolean): string | undefined => {
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!;
      if (!pred(e) || !/root[ -]cause/i.test(e.content)) continue;
      const p = rootCausePhrase(e.content);
      if (p) return p;
    }
    return undefined;
  };
  const stated = byType((e) => e.type === 'outcome') ?? byType(() => true);
  if (stated) return stated;
  for (let i = corrections.length - 1; i >= 0; i--) {
    const actual = parseCorrection(corrections[i]!).actual;
    if (actual) return actual;
  }
  return undefined;
}

/** The deterministic description. */
export function describeEpisode(events: readonly DescribeEvent[], options?: unknown): EpisodeDescription {
  const opts = parseLearnOptions('describe', options);
  const { outcome, details: outcomeDetails } = outcomeOf(events);
  const corrections = correctionsOf(events);
  const rootCause = rootCauseOf(events, corrections);
  const situation = situationOf(events);
  const item = (s: string) => clip(s, opts.maxItemChars);
  const decisions = dedupe([...events.filter((e) => e.type === 'decision').map((e) => tidy(stripLabel(e.content, ['decision']))), ...agentDecisions(events)]);
  const described = {
    outcome,
    outcomeDetails: outcomeDetails ? item(outcomeDetails) : undefined,
    decisions: decisions.map(item),
    assumptions: assumptionsOf(events, corrections).map(item),
    corrections: corrections.map(item),
    rootCause: rootCause ? item(rootCause) : undefined,
    situation: situation ? item(situation) : undefined,
  };
  return {
    summary: composeSummary({ ...described, actions: actionsOf(events), findings: findingsOf(events) }, opts),
    ...described,
    importance: importanceOf(events, outcome, corrections.length),
    method: 'heuristic',
  };
}

export class HeuristicSummarizer implements Summarizer {
  readonly name = 'heuristic';
  private readonly options: DescribeOptions;
  constructor(options?: unknown) {
    this.options = parseLearnOptions('describe', options);
  }
  summarize(events: readonly DescribeEvent[]): Promise<EpisodeDescription> {
    return Promise.resolve(describeEpisode(events, this.options));
  }
}

interface SummaryParts {
  situation?: string | undefined;
  actions: string[];
  findings: string[];
  outcome: Outcome;
  outcomeDetails?: string | undefined;
  rootCause?: string | undefined;
  corrections: string[];
}

/**
 * "<situation>. Tried: <a>; <b>. Outcome: FAILURE — <root cause or details>. Correction: <c>." Each part gets a
 * share of `maxSummaryChars` (unused shares pass on), so a long report cannot crowd out the outcome.
 */
export function composeSummary(p: SummaryParts, opts: DescribeOptions): string {
  // A root cause that a correction states in full is said by the correction ("the lockfile was stale, not node 22").
  const cause = p.rootCause && !alreadySaid(p.corrections, p.rootCause) ? p.rootCause : undefined;
  const details = p.outcomeDetails && sentenceCore(p.outcomeDetails) !== '' && !alreadySaid(p.corrections, p.outcomeDetails) ? p.outcomeDetails : '';
  const outcomeText = cause ? `root cause: ${cause}` : p.rootCause ? '' : details;
  const parts: Array<{ share: number; text: string | undefined }> = [
    { share: 0.3, text: p.situation },
    { share: 0.22, text: p.actions.length ? `Tried: ${p.actions.join('; ')}` : p.findings.length ? `Found: ${p.findings[0]}` : undefined },
    { share: 0.26, text: p.outcome === 'UNKNOWN' && !outcomeText ? undefined : `Outcome: ${p.outcome}${outcomeText ? ` — ${outcomeText}` : ''}` },
    { share: 0.22, text: p.corrections.length ? `Correction: ${p.corrections.join('; ')}` : undefined },
  ];
  // Each thing once: a situation that is the outcome event itself, or a part another one already holds.
  const kept = sayOnce(parts.flatMap((x) => (x.text ? [withPeriod(x.text)] : [])));
  const present = parts.filter((x): x is { share: number; text: string } => {
    const i = x.text ? kept.indexOf(withPeriod(x.text)) : -1;
    if (i < 0) return false;
    kept.splice(i, 1);
    return true;
  });
  const total = present.reduce((s, x) => s + x.share, 0);
  const budget = opts.maxSummaryChars - 2 * present.length;
  let spare = 0;
  const texts = present.map((x) => {
    const room = Math.floor((budget * x.share) / total);
    const sentence = withPeriod(x.text);
    if (sentence.length <= room) {
      spare += room - sentence.length;
      return sentence;
    }
    return undefined;
  });
  // Second pass: parts that did not fit get their share plus whatever the short parts left over.
  const overflow = texts.filter((t) => t === undefined).length;
  const out = present.map((x, i) => {
    if (texts[i] !== undefined) return texts[i];
    const room = Math.floor((budget * x.share) / total) + Math.floor(spare / overflow);
    return withPeriod(clip(x.text, Math.max(20, room - 1)));
  });
  return clip(out.join(' '), opts.maxSummaryChars);
}

function withPeriod(s: string): string {
  return /[.!?…]$/.test(s) ? s : `${s}.`;
}

function agentDecisions(events: readonly DescribeEvent[]): string[] {
  return events.filter((e) => e.type !== 'decision' && e.actor === 'agent').flatMap((e) => decisionSentences(e.content));
}

function details(e: DescribeEvent): string | undefined {
  const t = tidy(stripLabel(e.content, ['outcome', 'result', 'status']));
  return t || undefined;
}

function importanceOf(events: readonly DescribeEvent[], outcome: Outcome, corrections: number): number {
  const peak = events.reduce((m, e) => Math.max(m, e.importance ?? 0), 0);
  const bump = (outcome === 'FAILURE' ? 0.1 : 0) + (corrections > 0 ? 0.1 : 0);
  return Math.min(1, Math.round((peak + bump) * 1000) / 1000);
}

function dedupe(items: string[]): string[] {
  const seen = new Set<string>();
  return items.filter((s) => {
    const k = s.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Exposed for the LLM summarizer's prompt: one line per event. */
export function eventLines(events: readonly DescribeEvent[], maxChars = 500): string[] {
  return events.map((e, i) => `#${i + 1} [${e.type}/${e.actor}] ${clip(sentences(e.content).join(' '), maxChars)}`);
}
