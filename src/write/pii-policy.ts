/**
 * One PII policy over every string Engram stores (docs/security.md, "Personal data"):
 *
 * - **Identifiers are rejected.** Fields that name or address something — tenant, user, agent, session and task
 *   ids, a fact's key, an event's tool — are compared for equality, index lookups, group episodes (the episode
 *   stream key is built from tenant, session and task) and select what `forget` erases. Scrubbing them would
 *   merge distinct subjects (every e-mail address becomes `[EMAIL]`), so PII there is a typed VALIDATION error
 *   naming the field and the kinds found, and nothing is written. Use an opaque id (a hash of the address).
 * - **Everything else is scrubbed**: content, names, args, results, metadata, tags, and the descriptive and
 *   provenance fields (event state label and source; fact subject, predicate, value, source, section), as are
 *   retrieval records (the query and the request config) — findings become typed placeholders.
 *
 * With `pii.enabled: false` (or no kinds) both steps find nothing and the policy does nothing.
 */
import { EngramError } from '../core/errors.js';
import type { PiiKind } from '../core/types.js';
import type { Scrubber } from './scrub.js';

/** Scope fields every record carries: identifiers. */
export const SCOPE_ID_FIELDS = ['tenant', 'userId', 'agentId', 'sessionId', 'taskId'] as const;

/** snake_case names for the paths callers of the JSON edges see. */
const WIRE_NAMES: Readonly<Record<string, string>> = { userId: 'user_id', agentId: 'agent_id', sessionId: 'session_id', taskId: 'task_id' };

/**
 * Identifiers glue words with `-` and `_` (`user-078-05-1120`, `host_192.168.10.45`), which prose detectors
 * read as one token; the check also scans the value with a joiner after a letter read as a space.
 */
const JOINER_AFTER_LETTER = /(?<=\p{L})[-_]/gu;

function kindsIn(scrubber: Pick<Scrubber, 'find'>, value: string): PiiKind[] {
  const split = value.replace(JOINER_AFTER_LETTER, ' ');
  const spans = split === value ? scrubber.find(value) : [...scrubber.find(value), ...scrubber.find(split)];
  return [...new Set(spans.map((s) => s.kind))];
}

/**
 * Throws VALIDATION when any of `fields` of `input` holds PII. The issue's path is `<at>.<field>`; the message
 * names the kinds, never the value.
 */
export function rejectPiiInIdentifiers(scrubber: Pick<Scrubber, 'find'>, input: Readonly<Record<string, unknown>>, fields: readonly string[], at: string): void {
  for (const field of fields) {
    const value = input[field];
    if (typeof value !== 'string' || value === '') continue;
    const kinds = kindsIn(scrubber, value);
    if (kinds.length === 0) continue;
    const path = at ? `${at}.${WIRE_NAMES[field] ?? field}` : WIRE_NAMES[field] ?? field;
    throw new EngramError('VALIDATION', `${path} looks like personal data (${kinds.join(', ')}); identifiers must not carry PII — use an opaque id`, {
      issues: [{ path, message: `identifier holds PII: ${kinds.join(', ')}` }],
      details: { kinds },
    });
  }
}

/** The scrubbed text of an optional field, and its report (undefined when absent). */
export function scrubOptional(scrubber: Scrubber, value: string | undefined) {
  return value === undefined ? undefined : scrubber.scrub(value);
}
