/**
 * Precedents: past cases a decision can reason from, each with the situation it arose in, the cause it turned
 * out to have, and how much to trust that. Built from whatever retrieval returned:
 *  - structured memory (Engram): an episode view gives situation, root cause, outcome label, corrections and
 *    assumptions directly; a fact gives its rule ("when <condition>, check <cause>, not <mistaken>") and its
 *    confidence and support;
 *  - raw text (flat RAG chunks, or plain events): the same extraction by cue parsing ("root cause: X",
 *    "was actually X, not Y", "Outcome: failure"). A chunk that names no cause is no precedent.
 * The parsing is generic English; nothing here knows any particular domain.
 */
import type { Outcome } from '../../../src/index.js';
import { classifyOutcome, parseCorrection, rootCausePhrase } from '../../lib/cues.js';
import { tidy } from '../../lib/text.js';
import type { ContextItem, ContextResult } from '../../../src/index.js';

export type PrecedentSource = 'episode' | 'fact' | 'chunk';

export interface Precedent {
  /** Item or chunk id. */
  id: string;
  /** How the decision's reason names it, e.g. `episode 01JX… (task round-3, FAILURE, corrected)`. */
  label: string;
  source: PrecedentSource;
  /** What the case was about: the report or summary, a fact's condition, the chunk's own text. */
  situation: string;
  /** What the case turned out to be caused by. */
  cause: string;
  /** What was believed and corrected away, when known. */
  mistaken: string[];
  /** Structured outcome label; null when the record carries none (raw text with no outcome cue). */
  outcome: Outcome | null;
  /** The cause was established by a correction. */
  corrected: boolean;
  /** 0..1: a fact's confidence; 1 for single cases. */
  confidence: number;
  /** Episodes behind it: a fact's support count, 1 for a single case. */
  support: number;
}

/** Precedents from structured context items; items without structure go through the raw-text extraction. */
export function precedentsFromContext(ctx: Pick<ContextResult, 'items'>): Precedent[] {
  const out: Precedent[] = [];
  for (const item of ctx.items) {
    const p = item.episode ? fromEpisodeItem(item) : item.fact && item.fact.kind !== 'chunk' ? fromFactItem(item) : fromText(item.id, itemLabel(item), item.text);
    if (p) out.push(p);
  }
  return out;
}

function itemLabel(item: ContextItem): string {
  const task = item.provenance.taskId ? ` of ${item.provenance.taskId}` : '';
  return `${item.kind} ${shortId(item.id)}${task}`;
}

function shortId(id: string): string {
  return id.length > 18 ? `${id.slice(0, 18)}…` : id;
}

function fromEpisodeItem(item: ContextItem): Precedent | undefined {
  const ep = item.episode!;
  const corrections = ep.corrections.map((c) => parseCorrection(c));
  const cause = ep.rootCause ?? corrections.find((c) => c.actual)?.actual;
  if (!cause) return undefined;
  const corrected = ep.corrections.length > 0;
  const mistaken = corrections.flatMap((c) => (c.mistaken ? [c.mistaken] : []));
  // An assumption is only known to be wrong when a correction overruled it.
  if (corrected) mistaken.push(...ep.assumptions);
  const name = item.provenance.taskId ?? shortId(item.id);
  return {
    id: item.id,
    label: `episode ${name} (${ep.outcome}${corrected ? ', corrected' : ''})`,
    source: 'episode',
    situation: ep.summary || item.text,
    cause: cleanCause(cause),
    mistaken: unique(mistaken.map(tidy).filter(Boolean)),
    outcome: ep.outcome,
    corrected,
    confidence: 1,
    support: 1,
  };
}

/** "When <condition>, check|suspect <cause>, not <mistaken> (seen in N …; corrected from <mistaken> …)". */
const RULE_RE = /^\s*(?:when(?:ever)?|if)\s+(.+?),\s*(?:then\s+)?(?:check|suspect|investigate|look at|consider|expect)\s+(.+)$/i;
const CORRECTED_FROM_RE = /\bcorrected from\s+(.+?)\s+in\s+\d+/i;

function fromFactItem(item: ContextItem): Precedent | undefined {
  const f = item.fact!;
  const text = tidy(item.text);
  const rule = RULE_RE.exec(text);
  const stats = /\(([^)]*)\)\s*$/.exec(text)?.[1] ?? '';
  const body = rule ? rule[2]! : text;
  const { cause, mistaken } = splitNegatedTail(body.replace(/\s*\([^)]*\)\s*$/, ''));
  if (!cause) return undefined;
  const from = CORRECTED_FROM_RE.exec(stats)?.[1];
  return {
    id: item.id,
    label: `fact ${shortId(f.key)} v${f.version} (confidence ${f.confidence.toFixed(2)}, +${f.supportCount}/−${f.contradictCount})`,
    source: 'fact',
    situation: rule ? rule[1]! : text,
    cause: cleanCause(cause),
    mistaken: unique([...(mistaken ? [mistaken] : []), ...(from ? [tidy(from)] : [])]),
    outcome: null,
    corrected: Boolean(from) || Boolean(mistaken),
    confidence: f.confidence,
    support: Math.max(1, f.supportCount),
  };
}

/** A labelled correction, "actually …", "X, not Y" (with the comma) or a leading "Not Y: X". */
const CORRECTION_SHAPE = /^\s*(?:correction\b|not\s)|\bactually\b|,\s+(?:and\s+)?not\s/i;

/** The raw-text extraction: cue parsing over one chunk of text. */
export function fromText(id: string, label: string, text: string): Precedent | undefined {
  // Only a text shaped like a correction is read as one: any sentence with a "not" in it ("arrive late or not
  // at all") would otherwise be taken for "X, not Y".
  const correction = CORRECTION_SHAPE.test(text) ? parseCorrection(text) : {};
  const stated = rootCausePhrase(text) ?? correction.actual;
  if (!stated) return undefined;
  const isCorrection = /^\s*correction\b/i.test(text) || /\bactually\b/i.test(text) || correction.mistaken !== undefined;
  const outcome = classifyOutcome(text);
  return {
    id,
    label,
    source: 'chunk',
    situation: text,
    cause: cleanCause(stated),
    mistaken: correction.mistaken ? [correction.mistaken] : [],
    outcome: outcome === 'UNKNOWN' ? null : outcome,
    corrected: isCorrection,
    confidence: 1,
    support: 1,
  };
}

/** "X, not Y" → X and Y. */
function splitNegatedTail(text: string): { cause: string; mistaken?: string | undefined } {
  const m = /^(.+?),\s+(?:and\s+)?not\s+(.+)$/i.exec(text);
  if (!m) return { cause: tidy(text) };
  return { cause: tidy(m[1]!), mistaken: tidy(m[2]!) };
}

/** A cause as a decision states it: one line, no trailing "not …" (that names the mistake, not the cause). */
function cleanCause(cause: string): string {
  return tidy(splitNegatedTail(cause.replace(/\s+/g, ' ')).cause);
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
