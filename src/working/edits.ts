/**
 * MemGPT-style self-editing operations on the scratchpad (seed 002: the model manages its own memory slots,
 * like `malloc` and `free`). Each is a pure function from state to state; persistence, the cap and retries
 * are the API's job (api.ts). Ids are short (`n3`, `e4`, `m5`) so a model can quote them back.
 */
import { EngramError } from '../core/errors.js';
import type { TokenCounter } from '../core/tokens.js';
import { mergeEntities } from './entities.js';
import type { WorkingMemoryOptions } from './options.js';
import { cloneState, ID_LETTER, type ItemKind, type WmItem, type WorkingState } from './state.js';

export interface NewItem {
  content: string;
  kind: ItemKind;
  source?: string | undefined;
  priority?: number | undefined;
}

function cut(content: string, o: WorkingMemoryOptions, tokens: TokenCounter): string {
  return tokens.truncate(content.trim(), o.maxItemTokens);
}

export function appendItem(state: WorkingState, item: NewItem, at: number, o: WorkingMemoryOptions, tokens: TokenCounter): { state: WorkingState; item: WmItem } {
  const s = cloneState(state);
  const added: WmItem = {
    id: `${ID_LETTER[item.kind]}${s.nextId}`,
    kind: item.kind,
    content: cut(item.content, o, tokens),
    ...(item.source !== undefined ? { source: item.source } : {}),
    priority: item.priority ?? o.priorities[item.kind],
    addedAt: at,
  };
  s.nextId += 1;
  s.items.push(added);
  return { state: s, item: added };
}

function notFound(id: string): EngramError {
  return new EngramError('NOT_FOUND', `no working-memory item ${id} (it may have been evicted; view the scratchpad for current ids)`, {
    issues: [{ path: 'id', message: 'unknown item id' }],
  });
}

export interface ReplaceEdit {
  id?: string | undefined;
  /** Replace this text inside the item (MemGPT's core_memory_replace); without it, the whole content. */
  find?: string | undefined;
  content?: string | undefined;
  priority?: number | undefined;
  source?: string | undefined;
}

export function replaceItem(state: WorkingState, edit: ReplaceEdit, o: WorkingMemoryOptions, tokens: TokenCounter): { state: WorkingState; item: WmItem } {
  const s = cloneState(state);
  const item = edit.id !== undefined ? s.items.find((i) => i.id === edit.id) : s.items.find((i) => edit.find !== undefined && i.content.includes(edit.find));
  if (!item) {
    if (edit.id !== undefined) throw notFound(edit.id);
    throw new EngramError('NOT_FOUND', `no working-memory item contains "${edit.find ?? ''}"`, { issues: [{ path: 'find', message: 'text not found' }] });
  }
  if (edit.content !== undefined) {
    if (edit.find !== undefined) {
      if (!item.content.includes(edit.find)) {
        throw new EngramError('NOT_FOUND', `item ${item.id} does not contain "${edit.find}"`, { issues: [{ path: 'find', message: 'text not found in the item' }] });
      }
      item.content = cut(item.content.split(edit.find).join(edit.content), o, tokens);
    } else {
      item.content = cut(edit.content, o, tokens);
    }
  }
  if (item.content === '') {
    throw new EngramError('VALIDATION', 'the edit would leave the item empty; remove it instead', { issues: [{ path: 'content', message: 'empty result' }] });
  }
  if (edit.priority !== undefined) item.priority = edit.priority;
  if (edit.source !== undefined) item.source = edit.source;
  return { state: s, item: { ...item } };
}

export function removeItem(state: WorkingState, id: string): { state: WorkingState; item: WmItem } {
  const s = cloneState(state);
  const item = s.items.find((i) => i.id === id);
  if (!item) throw notFound(id);
  s.items = s.items.filter((i) => i !== item);
  return { state: s, item };
}

export function setPlan(state: WorkingState, plan: string | null, o: WorkingMemoryOptions, tokens: TokenCounter): WorkingState {
  const s = cloneState(state);
  const text = plan === null ? '' : tokens.truncate(plan.trim(), o.maxItemTokens);
  s.plan = text === '' ? undefined : text;
  return s;
}

export function setEntity(state: WorkingState, key: string, value: string | null, at: number, o: WorkingMemoryOptions): WorkingState {
  const s = cloneState(state);
  const k = key.trim();
  if (value === null || value.trim() === '') {
    s.entities = s.entities.filter((e) => e.key.toLowerCase() !== k.toLowerCase());
    return s;
  }
  s.entities = mergeEntities(s.entities, [{ key: k, value: value.trim() }], at, o.maxEntities);
  return s;
}
