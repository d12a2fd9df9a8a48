import type { Json } from '../core/types.js';

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
