/**
 * Rendering: the JSON items and the prompt text the caller sends to an LLM.
 *
 *   ## Recent events (task deploy_2025_09_20)
 *   <memory>
 *   - kubectl(ns=payments, action=rollout status) → ok=true, msg=Deployment available [tool_call · 2025-09-20 18:22Z]
 *   </memory>
 *
 *   ## Relevant memory
 *   <memory>
 *   - Roll back with `kubectl rollout undo` … [runbook.md §rollback · 2025-09-20]
 *   </memory>
 *
 *   ## Conflicts
 *   <memory>
 *   - Newer event "…" contradicts fact "…"; using the newer one.
 *   </memory>
 *
 * Memory is data: headings, fence lines and the `- ` that starts an item line are written here and nowhere
 * else; every stored string passes through `inertText` (core/prompt-safe.ts) on its way in, so it stays on its
 * line, inside its fence, and cannot close the fence (property-tested with testing/injection-corpus.ts).
 *
 * The budget step calls `renderText` on every trial selection, so what it counts is exactly what is returned.
 */
import { eventDocText } from '../core/docs.js';
import { fenced, inertTagPart, inertText } from '../core/prompt-safe.js';
import type { Json } from '../core/types.js';
import { wordSet } from './text.js';
import { episodeBody, episodeView, factBody, factView } from './outcome.js';
import type { SectionSpec } from './sections.js';
import type { Candidate, ContextItem, Provenance } from './types.js';

export interface RenderOptions {
  provenanceInline: boolean;
  /** Read-time PII scrub of the provenance parts (source, section, type, task id) when the guardrail is on. */
  scrub?: ((text: string) => string) | undefined;
}

/** One chosen item: the candidate and the body text actually shown (possibly truncated). */
export interface RenderedEntry {
  candidate: Candidate;
  body: string;
  truncated: boolean;
}

export interface RenderSection {
  spec: SectionSpec;
  entries: RenderedEntry[];
}

function inline(value: Json | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || Array.isArray(value)) return JSON.stringify(value);
  return Object.entries(value)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
}

/**
 * The full body of an item before any truncation. Tool events show the agent's own words (when it wrote any)
 * followed by tool(args) → result; episodes lead with
 * their outcome label (`[OUTCOME: FAILURE] … Correction: …`); learned facts end with their evidence.
 */
export function itemBody(c: Candidate): string {
  return inertText(rawBody(c));
}

function rawBody(c: Candidate): string {
  if (c.doc.kind === 'episode' && c.episode) return episodeBody(c.episode, c.cases);
  if (c.doc.kind === 'fact' && c.fact) return factBody(c.fact, inertText(c.doc.text));
  const e = c.event;
  if (e?.tool && (e.args !== undefined || e.result !== undefined)) {
    const call = `${e.tool}(${inline(e.args)})`;
    const result = inline(e.result);
    const line = result ? `${call} → ${result}` : call;
    // The agent's own words lead when they say more than the call does (the write path fills `content` from
    // the call when the caller gave none, and a content that only restates the call adds nothing).
    const own = e.content.trim();
    const callWords = wordSet(line);
    return own && [...wordSet(own)].some((w) => !callWords.has(w)) ? `${withStop(own)} ${line}` : line;
  }
  return e ? eventDocText(e) : c.doc.text;
}

const withStop = (s: string): string => (/[.!?…:;—-]$/.test(s) ? s : `${s}.`);

const minute = (ts: number): string => `${new Date(ts).toISOString().slice(0, 16).replace('T', ' ')}Z`;
const dayOf = (ts: number): string => new Date(ts).toISOString().slice(0, 10);

/**
 * `[runbook.md §rollback · 2025-09-20]` for memory; `[tool_call · 2025-09-20 18:22Z]` for events; led by the
 * reader's layer when the read labelled it (`[user · preference · 2025-09-20]`, docs/scopes.md), and by `weak match` when
 * the query met the relevance floor only weakly (floor.ts).
 */
export function provenanceTag(c: Candidate, scrub: (text: string) => string = (t) => t): string {
  const d = c.doc;
  // A weak match (floor.ts) says so first, so a model reading the prompt can weigh it.
  const parts: string[] = [...(c.scores.weak ? ['weak match'] : []), ...(c.layer && c.layerShown ? [c.layer] : [])];
  const source = d.source ? inertTagPart(scrub(d.source)) : '';
  const section = d.section ? inertTagPart(scrub(d.section)) : '';
  const type = d.type ? inertTagPart(scrub(d.type)) : '';
  const where = [source, section ? `§${section}` : undefined].filter(Boolean).join(' ');
  if (d.kind === 'event') {
    parts.push(type || 'event');
    if (where) parts.push(where);
    parts.push(minute(d.ts));
  } else {
    parts.push(where || (type ? `${d.kind}:${type}` : d.kind));
    parts.push(dayOf(d.ts));
  }
  return `[${parts.join(' · ')}]`;
}

export function renderLine(entry: RenderedEntry, opts: RenderOptions): string {
  const tag = opts.provenanceInline ? ` ${provenanceTag(entry.candidate, opts.scrub)}` : '';
  // The body is inert already when it comes from itemBody; a caller's wrapper (PII scrub) must not undo that.
  return `- ${inertText(entry.body)}${tag}`;
}

/** A section as text: its heading, then its lines inside the memory fence. */
export function sectionBlock(title: string, lines: readonly string[]): string {
  return [`## ${inertText(title)}`, ...fenced(lines)].join('\n');
}

function ordered(section: RenderSection): RenderedEntry[] {
  if (section.spec.order === 'score') return section.entries;
  return [...section.entries].sort(
    (a, b) => a.candidate.doc.ts - b.candidate.doc.ts || (a.candidate.event?.seq ?? 0) - (b.candidate.event?.seq ?? 0),
  );
}

/** The prompt text. Empty sections are left out; an empty selection renders as ''. */
export function renderText(sections: readonly RenderSection[], notes: readonly string[], opts: RenderOptions, chains: readonly string[] = []): string {
  const blocks: string[] = [];
  for (const s of sections) {
    if (s.entries.length === 0) continue;
    const title = opts.scrub ? opts.scrub(s.spec.title) : s.spec.title;
    blocks.push(sectionBlock(title, ordered(s).map((e) => renderLine(e, opts))));
  }
  if (chains.length > 0) blocks.push(sectionBlock('Causal chain', chains.map((c) => `- ${inertText(c)}`)));
  if (notes.length > 0) blocks.push(sectionBlock('Conflicts', notes.map((n) => `- ${inertText(n)}`)));
  return blocks.join('\n\n');
}

export function provenanceOf(c: Candidate, scrub: (text: string) => string = (t) => t): Provenance {
  const d = c.doc;
  const opt = (v: string | undefined) => (v === undefined ? null : scrub(v));
  return {
    source: opt(d.source),
    section: opt(d.section),
    ts: new Date(d.ts).toISOString(),
    type: opt(d.type),
    actor: d.actor ?? null,
    taskId: opt(d.taskId),
    sessionId: opt(d.sessionId),
    tags: [...d.tags],
    contentHash: d.contentHash,
  };
}

/** JSON items in text order. */
export function renderItems(sections: readonly RenderSection[], scrub?: (text: string) => string): ContextItem[] {
  return sections.flatMap((s) =>
    ordered(s).map((e) => ({
      id: e.candidate.doc.refId,
      kind: e.candidate.doc.kind,
      section: s.spec.name,
      ...(e.candidate.layer ? { layer: e.candidate.layer } : {}),
      text: e.body,
      truncated: e.truncated,
      provenance: provenanceOf(e.candidate, scrub),
      scores: { ...e.candidate.scores },
      ...(e.candidate.doc.kind === 'episode' && e.candidate.episode ? { episode: episodeView(e.candidate.episode, e.candidate.links ?? [], e.candidate.cases) } : {}),
      ...(e.candidate.doc.kind === 'fact' && e.candidate.fact ? { fact: factView(e.candidate.fact) } : {}),
    })),
  );
}
