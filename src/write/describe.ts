import type { EventType, Json } from '../core/types.js';

/** A compact one-line rendering of a JSON value for search text: `ns=payments action="rollout status"`. */
export function compactJson(value: Json | undefined, maxChars = 2000): string {
  if (value === undefined) return '';
  let out: string;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    out = Object.entries(value)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? (/\s/.test(v) ? JSON.stringify(v) : v) : JSON.stringify(v)}`)
      .join(' ');
  } else {
    out = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out.length > maxChars ? `${out.slice(0, maxChars)}…` : out;
}

/** Searchable text of a tool call: `kubectl ns=payments action="rollout status" → ok=true msg="Deployment available"`. */
export function describeToolCall(tool: string | undefined, args: Json | undefined, result: Json | undefined): string {
  const call = [tool, compactJson(args)].filter(Boolean).join(' ');
  const res = compactJson(result);
  return res ? `${call} → ${res}` : call;
}

/** Default importance (0..1) by event type, in the spirit of Generative Agents' poignancy. */
const TYPE_IMPORTANCE: Record<EventType, number> = {
  correction: 0.9,
  outcome: 0.8,
  error: 0.75,
  decision: 0.7,
  feedback: 0.7,
  state_change: 0.5,
  tool_call: 0.4,
  tool_result: 0.4,
  message: 0.4,
  note: 0.4,
  observation: 0.3,
};

const SALIENT = /\b(fail(ed|ure)?|error|exception|incident|outage|rollback|wrong|never|always|must|critical|urgent|deadline|decided|prefer)\b/i;

/** Deterministic importance: the type's base, nudged up when the text carries salient words. */
export function defaultImportance(type: EventType, text: string): number {
  const base = TYPE_IMPORTANCE[type];
  return Math.min(1, SALIENT.test(text) ? base + 0.1 : base);
}
