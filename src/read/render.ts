/**
 * Rendering: the JSON items and the prompt text the caller sends to an LLM.
 *
 *   ## Recent events (task deploy_2025_09_20)
 *   - kubectl(ns=payments, action=rollout status) → ok=true, msg=Deployment available [tool_call · 2025-09-20 18:22Z]
 *
 *   ## Relevant memory
 *   - Roll back with `kubectl rollout undo` … [runbook.md §rollback · 2025-09-20]
 *
 *   ## Conflicts
 *   - Newer event "…" contradicts fact "…"; using the newer one.
 *
 * The budget step calls `renderText` on every trial selection, so what it counts is exactly what is returned.
 */
import { eventDocText } from '../core/docs.js';
import type { Json } from '../core/types.js';
import { episodeBody, episodeView, factBody, factView } from './outcome.js';
import type { SectionSpec } from './sections.js';
import type { Candidate, ContextItem, Provenance } from './types.js';

export interface RenderOptions {
  provenanceInline: boolean;
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
 * The full body of an item before any truncation. Tool events show tool(args) → result; episodes lead with
 * their outcome label (`[OUTCOME: FAILURE] … Correction: …`); learned facts end with their evidence.
 */
export function itemBody(c: Candidate): string {
  if (c.doc.kind === 'episode' && c.episode) return episodeBody(c.episode);
  if (c.doc.kind === 'fact' && c.fact) return factBody(c.fact, c.doc.text.replace(/\s*\n\s*/g, ' ').trim());
  const e = c.event;
  if (e?.tool && (e.args !== undefined || e.result !== undefined)) {
    const call = `${e.tool}(${inline(e.args)})`;
    const result = inline(e.result);
    return result ? `${call} → ${result}` : call;
  }
  const text = e ? eventDocText(e) : c.doc.text;
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

const minute = (ts: number): string => `${new Date(ts).toISOString().slice(0, 16).replace('T', ' ')}Z`;
const dayOf = (ts: number): string => new Date(ts).toISOString().slice(0, 10);

/** `[runbook.md §rollback · 2025-09-20]` for memory; `[tool_call · 2025-09-20 18:22Z]` for events. */
export function provenanceTag(c: Candidate): string {
  const d = c.doc;
  const parts: string[] = [];
  const where = [d.source, d.section ? `§${d.section}` : undefined].filter(Boolean).join(' ');
  if (d.kind === 'event') {
    parts.push(d.type ?? 'event');
    if (where) parts.push(where);
    parts.push(minute(d.ts));
  } else {
    parts.push(where || (d.type ? `${d.kind}:${d.type}` : d.kind));
    parts.push(dayOf(d.ts));
  }
  return `[${parts.join(' · ')}]`;
}

export function renderLine(entry: RenderedEntry, opts: RenderOptions): string {
  const tag = opts.provenanceInline ? ` ${provenanceTag(entry.candidate)}` : '';
  return `- ${entry.body}${tag}`;
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
    blocks.push([`## ${s.spec.title}`, ...ordered(s).map((e) => renderLine(e, opts))].join('\n'));
  }
  if (chains.length > 0) blocks.push(['## Causal chain', ...chains.map((c) => `- ${c}`)].join('\n'));
  if (notes.length > 0) blocks.push(['## Conflicts', ...notes.map((n) => `- ${n}`)].join('\n'));
  return blocks.join('\n\n');
}

export function provenanceOf(c: Candidate): Provenance {
  const d = c.doc;
  return {
    source: d.source ?? null,
    section: d.section ?? null,
    ts: new Date(d.ts).toISOString(),
    type: d.type ?? null,
    actor: d.actor ?? null,
    taskId: d.taskId ?? null,
    sessionId: d.sessionId ?? null,
    tags: [...d.tags],
    contentHash: d.contentHash,
  };
}

/** JSON items in text order. */
export function renderItems(sections: readonly RenderSection[]): ContextItem[] {
  return sections.flatMap((s) =>
    ordered(s).map((e) => ({
      id: e.candidate.doc.refId,
      kind: e.candidate.doc.kind,
      section: s.spec.name,
      text: e.body,
      truncated: e.truncated,
      provenance: provenanceOf(e.candidate),
      scores: { ...e.candidate.scores },
      ...(e.candidate.doc.kind === 'episode' && e.candidate.episode ? { episode: episodeView(e.candidate.episode, e.candidate.links ?? []) } : {}),
      ...(e.candidate.doc.kind === 'fact' && e.candidate.fact ? { fact: factView(e.candidate.fact) } : {}),
    })),
  );
}
