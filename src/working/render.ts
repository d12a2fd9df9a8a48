/**
 * `toContext()`: the scratchpad as prompt text, in seed 004's format (its headers, `- [source] content` for
 * evidence), extended with the key facts, the summary of earlier turns and the recent turns:
 *
 *   ## Current Plan
 *   ## Key Facts              - User Name: Alice
 *   ## Evidence Gathered      - [runbook.md] Restart the pool first (id: e2)
 *   ## Scratchpad             Pool size is 20 (id: n1)
 *   ## Earlier in this session
 *   ## Recent Turns           user: …
 *
 * With `ids` (the default) every item carries its id, so a model can name it to replace, remove or page it
 * out; without, scratchpad lines are the bare content, exactly as in the seed.
 *
 * Stored text cannot forge structure: single-line fields pass through `inertText` (no control, separator or
 * bidi character survives), and the plan and summary keep their line breaks but each line is made inert and a
 * line that would read as a heading is escaped (`\## …`). Only this file writes `## ` headings.
 */
import { inertText } from '../core/prompt-safe.js';
import type { WmEntity, WmItem, WmTurn, WorkingState } from './state.js';

export interface RenderOptions {
  ids?: boolean;
}

const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;

/** Free text that may span lines (plan, summary): each line inert, none able to pose as a heading. */
function inertBlock(text: string): string {
  return text
    .split(LINE_BREAK)
    .map((l) => inertText(l).replace(/^#/, '\\#'))
    .filter((l) => l.length > 0)
    .join('\n');
}

export function itemLine(item: WmItem, ids: boolean): string {
  const tail = ids ? ` (id: ${inertText(item.id)})` : '';
  const content = inertText(item.content);
  // Without ids a scratchpad line has no leading `- `: escape one that would read as a heading.
  const bare = content.replace(/^#/, '\\#');
  if (item.kind === 'evidence') return `- [${inertText(item.source ?? 'unknown')}] ${content}${tail}`;
  if (item.kind === 'paged_in') return `${ids ? '- ' : ''}[from memory ${inertText(item.source ?? '')}] ${content}${tail}`;
  return `${ids ? `- ${content}` : bare}${tail}`;
}

export function entityLine(e: WmEntity): string {
  return `- ${inertText(e.key)}: ${inertText(e.value)}`;
}

export function turnLine(t: WmTurn): string {
  return `${t.role}: ${inertText(t.content)}`;
}

export function renderState(s: WorkingState, opts: RenderOptions = {}): string {
  const ids = opts.ids ?? true;
  const parts: string[] = [];
  if (s.plan) parts.push(`## Current Plan\n${inertBlock(s.plan)}`);
  if (s.entities.length) parts.push(`## Key Facts\n${s.entities.map(entityLine).join('\n')}`);
  const evidence = s.items.filter((i) => i.kind === 'evidence');
  if (evidence.length) parts.push(`## Evidence Gathered\n${evidence.map((i) => itemLine(i, ids)).join('\n')}`);
  const notes = s.items.filter((i) => i.kind !== 'evidence');
  if (notes.length) parts.push(`## Scratchpad\n${notes.map((i) => itemLine(i, ids)).join('\n')}`);
  if (s.summary) parts.push(`## Earlier in this session\n${inertBlock(s.summary)}`);
  if (s.turns.length) parts.push(`## Recent Turns\n${s.turns.map(turnLine).join('\n')}`);
  return parts.join('\n\n');
}
