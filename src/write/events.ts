/** The event write path: validate → scrub PII → describe → hash → TTL → durable append. */
import type { EngramConfig } from '../core/config.js';
import { EngramError } from '../core/errors.js';
import { isId, newId } from '../core/ids.js';
import { assertSafeJson } from '../core/safe-keys.js';
import { assertCleanText, contentHash } from '../core/text.js';
import type { Actor, EventType, MemoryEvent } from '../core/types.js';
import { parseWith } from '../core/validate.js';
import type { Clock } from '../ports/clock.js';
import type { NewEvent } from '../ports/storage.js';
import { describeToolCall } from './describe.js';
import { contentImportance } from './importance.js';
import { eventInputSchema, normalizeKeys, type ParsedEventInput } from './input.js';
import { assertJsonClean } from './clean.js';
import type { Scrubber } from './scrub.js';
import { mergeReports } from './scrub.js';
import { rejectPiiInIdentifiers, SCOPE_ID_FIELDS, scrubOptional } from './pii-policy.js';

/** Event identifiers (docs/security.md): PII in them is rejected, not scrubbed. */
const EVENT_ID_FIELDS = [...SCOPE_ID_FIELDS, 'tool'] as const;

export interface EventWriteContext {
  config: EngramConfig;
  scrubber: Scrubber;
  clock: Clock;
  defaultTenant: string;
  /**
   * For predicates with the `llm` conflict strategy: replace (`single`), keep both (`multi`) or `merge` the
   * live value and a new one. Absent without an LLM (the strategy then acts as `single`).
   */
  decideConflict?: ((input: ConflictQuestion) => Promise<ConflictStrategyChoice>) | undefined;
  /** Failures the write path recovers from (an LLM that did not answer). */
  onError?: ((error: unknown) => void) | undefined;
}

export type ConflictStrategyChoice = 'single' | 'multi' | 'merge';

export interface ConflictQuestion {
  predicate: string;
  previous: { text: string; value: string | undefined };
  next: { text: string; value: string | undefined };
}

const DEFAULT_ACTOR: Record<EventType, Actor> = {
  message: 'user',
  tool_call: 'agent',
  tool_result: 'tool',
  observation: 'agent',
  decision: 'agent',
  outcome: 'system',
  correction: 'user',
  feedback: 'user',
  state_change: 'system',
  error: 'system',
  note: 'agent',
};

/**
 * Validates and prepares a batch. All inputs are checked before anything is returned, so a batch with one
 * bad item fails whole, naming the item (`events.3.type`).
 */
export function prepareEvents(ctx: EventWriteContext, inputs: readonly unknown[], path = 'events'): NewEvent[] {
  if (inputs.length > ctx.config.limits.maxBatch) {
    throw new EngramError('LIMIT', `a batch holds at most ${ctx.config.limits.maxBatch} events`, {
      issues: [{ path, message: `at most ${ctx.config.limits.maxBatch} items` }],
    });
  }
  const schema = eventInputSchema(ctx.config.limits.maxContentChars);
  const parsed = inputs.map((raw, i) => {
    const at = inputs.length === 1 && path === 'event' ? path : `${path}.${i}`;
    assertSafeJson(raw, at);
    const input = parseWith(schema, normalizeKeys(raw), { what: 'event', prefix: at });
    checkText(input, at);
    rejectPiiInIdentifiers(ctx.scrubber, input, EVENT_ID_FIELDS, at);
    if (input.id !== undefined && !isId('event', input.id)) {
      throw new EngramError('VALIDATION', `${at}.id is not a valid event id`, {
        issues: [{ path: `${at}.id`, message: 'expected evt_<ULID>' }],
      });
    }
    return input;
  });
  const seen = new Set<string>();
  for (const [i, p] of parsed.entries()) {
    if (p.id === undefined) continue;
    if (seen.has(p.id)) {
      throw new EngramError('CONFLICT', `${path}.${i}.id repeats an id of the same batch`, {
        issues: [{ path: `${path}.${i}.id`, message: 'duplicate id in batch' }],
      });
    }
    seen.add(p.id);
  }
  const now = ctx.clock.now();
  return parsed.map((p) => toNewEvent(ctx, p, now));
}

function checkText(input: ParsedEventInput, at: string): void {
  for (const key of ['content', 'name', 'tool', 'source', 'stateLabel'] as const) {
    const v = input[key];
    if (typeof v === 'string') assertCleanText(v, `${at}.${key}`);
  }
  input.tags.forEach((t, i) => assertCleanText(t, `${at}.tags.${i}`));
  assertJsonClean(input.args, `${at}.args`);
  assertJsonClean(input.result, `${at}.result`);
  assertJsonClean(input.metadata, `${at}.metadata`);
}

function toNewEvent(ctx: EventWriteContext, p: ParsedEventInput, now: number): NewEvent {
  const s = ctx.scrubber;
  const content = s.scrub(p.content ?? '');
  const name = p.name === undefined ? undefined : s.scrub(p.name);
  const args = p.args === undefined ? undefined : s.scrubJson(p.args);
  const result = p.result === undefined ? undefined : s.scrubJson(p.result);
  const metadata = s.scrubJson(p.metadata);
  const tags = p.tags.map((t) => s.scrub(t));
  const stateLabel = scrubOptional(s, p.stateLabel);
  const source = scrubOptional(s, p.source);
  const pii = mergeReports(
    content.report,
    ...(name ? [name.report] : []),
    ...(stateLabel ? [stateLabel.report] : []),
    ...(source ? [source.report] : []),
    ...(args ? [args.report] : []),
    ...(result ? [result.report] : []),
    metadata.report,
    ...tags.map((t) => t.report),
  );
  const text =
    content.text.trim() !== '' ? content.text : describeToolCall(p.tool, args?.value, result?.value);
  const ts = p.ts ?? now;
  const ttlDays = ctx.config.retention.episodicTtlDays;
  return {
    id: p.id ?? newId('event'),
    tenant: p.tenant ?? ctx.defaultTenant,
    userId: p.userId,
    agentId: p.agentId,
    sessionId: p.sessionId,
    taskId: p.taskId,
    ts,
    recordedAt: now,
    type: p.type,
    actor: p.actor ?? DEFAULT_ACTOR[p.type],
    name: name?.text,
    content: text,
    tool: p.tool,
    args: args?.value,
    result: result?.value,
    stateLabel: stateLabel?.text,
    tags: tags.map((t) => t.text),
    importance: p.importance ?? contentImportance(p.type, text),
    source: source?.text,
    metadata: metadata.value as MemoryEvent['metadata'],
    contentHash: contentHash(p.type, p.taskId, p.sessionId, name?.text, text),
    expiresAt: p.expiresAt ?? (ttlDays === null ? undefined : ts + ttlDays * 86_400_000),
    pii,
  };
}
