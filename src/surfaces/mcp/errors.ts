/**
 * Every failure inside a tool becomes an MCP tool error (`isError: true`) carrying the EngramError code and
 * message, so the model can read what went wrong and retry differently; nothing a tool does can take the
 * server down. Server-side failures (ADAPTER, CONFIG, anything that is not an EngramError) keep their
 * internal message out of the reply when `hideInternal` is set (remote transports), as the REST errors do.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EngramError, isEngramError } from '../../core/errors.js';

const INTERNAL_CODES = new Set(['ADAPTER', 'CONFIG']);
const PUBLIC_MESSAGE = 'a storage or model backend failed; try again later';

export function toEngramError(e: unknown): EngramError {
  if (isEngramError(e)) return e;
  return new EngramError('ADAPTER', e instanceof Error ? e.message : String(e), { cause: e });
}

/** Tool arguments are snake_case; the library names its fields in camelCase (`retrievalId` → `retrieval_id`). */
function argName(text: string): string {
  return text.replace(/\b([a-z]+)((?:[A-Z][a-z0-9]*)+)\b/g, (_m, head: string, tail: string) => `${head}${tail.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`);
}

export function toolError(e: unknown, opts: { hideInternal?: boolean } = {}): CallToolResult {
  const err = toEngramError(e);
  const hidden = opts.hideInternal === true && INTERNAL_CODES.has(err.code);
  // An error about the arguments as sent (an unknown one) already speaks the caller's words: keep them.
  const name = err.details.asSent === true ? (t: string) => t : argName;
  const message = hidden ? PUBLIC_MESSAGE : name(err.message);
  const issues = hidden ? [] : err.issues.map((i) => ({ path: name(i.path), message: i.message }));
  // parseWith already names its first issue in the message ("invalid x: path: why"); do not say it twice.
  const extra = issues.filter((i) => !message.includes(`${i.path || '(root)'}: ${i.message}`));
  const lines = [`${err.code}: ${message}`, ...extra.slice(0, 10).map((i) => `  ${i.path || '(input)'}: ${i.message}`)];
  return {
    isError: true,
    content: [{ type: 'text', text: lines.join('\n') }],
    structuredContent: { error: { code: err.code, message, issues: issues.map((i) => ({ path: i.path, message: i.message })) } },
  };
}
