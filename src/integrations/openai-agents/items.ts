/**
 * How an Agents SDK item lives on Engram's timeline: one event per item, in the session's scope, tagged
 * `openai-agents`. The item itself (exactly, as JSON) is in `metadata.oa_item`; type, actor, content and tool are
 * derived from it so the timeline, search and episodes read it like any other conversation.
 *
 *   message (user / assistant / system)   → message, actor user / agent / system, content = its text
 *   function_call, *_call                  → tool_call, actor agent, tool = its name, content = name(arguments)
 *   function_call_result, *_call_result    → tool_result, actor tool, content = its output as text
 *   anything else (reasoning, compaction…) → note, actor agent
 */
import type { AgentInputItem } from '@openai/agents-core';
import type { Actor, EventType, JsonObject, MemoryEvent } from '../../core/types.js';

export const ITEM_TAG = 'openai-agents';
const MAX_CONTENT = 8_000;

type Loose = Record<string, unknown>;

export interface ItemEvent {
  type: EventType;
  actor: Actor;
  content: string;
  tool?: string;
  metadata: JsonObject;
}

export function itemToEvent(item: AgentInputItem): ItemEvent {
  const json = JSON.parse(JSON.stringify(item)) as JsonObject;
  const it = item as unknown as Loose;
  const kind = typeof it['type'] === 'string' ? it['type'] : 'message';
  const metadata = { oa_item: json, oa_type: kind };
  if (kind === 'message') {
    const role = it['role'];
    const actor: Actor = role === 'user' ? 'user' : role === 'assistant' ? 'agent' : 'system';
    return { type: 'message', actor, content: clip(textOf(it['content'])) || `[${String(role)} message]`, metadata };
  }
  const name = typeof it['name'] === 'string' ? it['name'] : kind;
  if (kind.endsWith('_result') || kind.endsWith('_output')) {
    return { type: 'tool_result', actor: 'tool', tool: name, content: clip(textOf(it['output'])) || `[${kind}]`, metadata };
  }
  if (kind.endsWith('_call')) {
    const args = typeof it['arguments'] === 'string' ? it['arguments'] : '';
    return { type: 'tool_call', actor: 'agent', tool: name, content: clip(`${name}(${args})`), metadata };
  }
  return { type: 'note', actor: 'agent', content: clip(textOf(it['content'] ?? it['summary'])) || `[${kind}]`, metadata };
}

/** The item an event holds, or undefined for an event that is not a session item. */
export function eventToItem(event: MemoryEvent): AgentInputItem | undefined {
  const item = event.metadata['oa_item'];
  return item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as unknown as AgentInputItem) : undefined;
}

/** Text out of the SDK's content shapes: a string, parts with `text`, or an output object. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(textOf).filter((t) => t !== '').join('\n');
  if (content !== null && typeof content === 'object') {
    const c = content as Loose;
    if (typeof c['text'] === 'string') return c['text'];
    if (typeof c['refusal'] === 'string') return c['refusal'];
    return '';
  }
  return content === undefined || content === null ? '' : String(content);
}

function clip(text: string): string {
  const t = text.trim();
  return t.length > MAX_CONTENT ? `${t.slice(0, MAX_CONTENT)}…` : t;
}
