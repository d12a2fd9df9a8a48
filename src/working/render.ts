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
 */
import type { WmEntity, WmItem, WmTurn, WorkingState } from './state.js';

export interface RenderOptions {
  ids?: boolean;
}

export function itemLine(item: WmItem, ids: boolean): string {
  const tail = ids ? ` (id: ${item.id})` : '';
  if (item.kind === 'evidence') return `- [${item.source ?? 'unknown'}] ${item.content}${tail}`;
  if (item.kind === 'paged_in') return `${ids ? '- ' : ''}[from memory ${item.source ?? ''}] ${item.content}${tail}`;
  return `${ids ? '- ' : ''}${item.content}${tail}`;
}

export function entityLine(e: WmEntity): string {
  return `- ${e.key}: ${e.value}`;
}

export function turnLine(t: WmTurn): string {
  return `${t.role}: ${t.content}`;
}

export function renderState(s: WorkingState, opts: RenderOptions = {}): string {
  const ids = opts.ids ?? true;
  const parts: string[] = [];
  if (s.plan) parts.push(`## Current Plan\n${s.plan}`);
  if (s.entities.length) parts.push(`## Key Facts\n${s.entities.map(entityLine).join('\n')}`);
  const evidence = s.items.filter((i) => i.kind === 'evidence');
  if (evidence.length) parts.push(`## Evidence Gathered\n${evidence.map((i) => itemLine(i, ids)).join('\n')}`);
  const notes = s.items.filter((i) => i.kind !== 'evidence');
  if (notes.length) parts.push(`## Scratchpad\n${notes.map((i) => itemLine(i, ids)).join('\n')}`);
  if (s.summary) parts.push(`## Earlier in this session\n${s.summary}`);
  if (s.turns.length) parts.push(`## Recent Turns\n${s.turns.map(turnLine).join('\n')}`);
  return parts.join('\n\n');
}
