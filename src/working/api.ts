/**
 * `createWorkingMemoryApi(deps, options)`: the bounded per-session scratchpad as one capability the facade
 * hangs on `memory.working`. Every change is read → apply (pure, edits.ts / history.ts) → fit the cap
 * (fit.ts) → compare-and-set through the storage port; a concurrent writer's CONFLICT replays the change on
 * the newer state. Side effects on long-term memory (page-out's remember, page-in's search) and model calls
 * happen once, outside or memoised across those replays.
 */
import type { z } from 'zod';
import { EngramError, isEngramError } from '../core/errors.js';
import { assertCleanText, contentHash } from '../core/text.js';
import type { DocKind, WorkingMemoryRecord } from '../core/types.js';
import { parseWith } from '../core/validate.js';
import type { LearnDeps } from '../learn/feedback/deps.js';
import { appendItem, removeItem, replaceItem, setEntity, setPlan, type ReplaceEdit } from './edits.js';
import { HeuristicEntityExtractor, LlmEntityExtractor, type EntityExtractor, type EntityUpdate } from './entities.js';
import { fitToCap, type Evicted } from './fit.js';
import { addTurn } from './history.js';
import {
  appendInputSchema,
  entityInputSchema,
  pageInInputSchema,
  pageOutInputSchema,
  planInputSchema,
  removeInputSchema,
  replaceInputSchema,
  sessionRefSchema,
  turnInputSchema,
  type SessionRef,
} from './input.js';
import { parseWorkingMemoryOptions, type WorkingMemoryOptions, type WorkingMemoryOptionsInput } from './options.js';
import { renderState, type RenderOptions } from './render.js';
import { emptyState, parseState, stateToJson, type TurnRole, type WmEntity, type WmItem, type WmTurn, type WorkingState } from './state.js';
import { ExtractiveSummarizer, LlmSummarizer, type Summarizer } from './summarize.js';

/** Enough for dozens of writers on one session; each replay re-reads, so progress is guaranteed per round. */
const MAX_ATTEMPTS = 32;
const MAX_BACKOFF_MS = 20;
const MEMO_SIZE = 64;

export interface WorkingMemoryView {
  tenant: string;
  sessionId: string;
  /** 0 when the session has no scratchpad yet. */
  version: number;
  plan?: string | undefined;
  items: WmItem[];
  entities: WmEntity[];
  summary?: string | undefined;
  turns: WmTurn[];
  /** `toContext()` with ids. */
  text: string;
  tokens: number;
  maxTokens: number;
  evictedCount: number;
}

export interface EditResult {
  version: number;
  /** Tokens of the rendered scratchpad after the change (never above `maxTokens`). */
  tokens: number;
  /** What the change pushed out: by the cap, the sliding window, or folded into the summary. */
  evicted: Evicted[];
}

type In<S extends z.ZodType> = z.input<S>;

export interface WorkingMemoryApi {
  readonly options: WorkingMemoryOptions;
  view(ref: SessionRef): Promise<WorkingMemoryView>;
  /** The scratchpad as prompt text (seed 004's format), within the token cap. */
  toContext(ref: SessionRef, opts?: RenderOptions): Promise<string>;
  /** Records a conversation turn: entity extraction, then the sliding window or summarization strategy. */
  addTurn(input: In<typeof turnInputSchema>): Promise<EditResult & { entities: EntityUpdate[] }>;
  append(input: In<typeof appendInputSchema>): Promise<EditResult & { item: WmItem }>;
  replace(input: In<typeof replaceInputSchema>): Promise<EditResult & { item: WmItem }>;
  remove(input: In<typeof removeInputSchema>): Promise<EditResult & { item: WmItem }>;
  setPlan(input: In<typeof planInputSchema>): Promise<EditResult>;
  setEntity(input: In<typeof entityInputSchema>): Promise<EditResult>;
  /** Moves an item into long-term memory (deps.remember) and out of the scratchpad. */
  pageOut(input: In<typeof pageOutInputSchema>): Promise<EditResult & { item: WmItem; memoryId: string }>;
  /** Searches long-term memory (deps.search) and brings the best hits into the scratchpad. */
  pageIn(input: In<typeof pageInInputSchema>): Promise<EditResult & { items: WmItem[] }>;
  /** Ends the session's scratchpad (seed 004: discarded at task end). */
  clear(ref: SessionRef): Promise<boolean>;
}

function parse<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const out = parseWith(schema, input, { what });
  for (const [k, v] of Object.entries(out as Record<string, unknown>)) if (typeof v === 'string') assertCleanText(v, k);
  return out;
}

/** Caches a model-backed step by its input, so a CONFLICT replay does not call the model again. */
function memoize<A extends unknown[], R>(keyOf: (...a: A) => string, fn: (...a: A) => Promise<R>): (...a: A) => Promise<R> {
  const cache = new Map<string, Promise<R>>();
  return (...a) => {
    const key = keyOf(...a);
    const hit = cache.get(key);
    if (hit) return hit;
    const p = fn(...a);
    p.catch(() => cache.delete(key));
    cache.set(key, p);
    if (cache.size > MEMO_SIZE) cache.delete(cache.keys().next().value!);
    return p;
  };
}

function memoSummarizer(inner: Summarizer): Summarizer {
  const run = memoize(
    (prev: string | undefined, turns: readonly WmTurn[], max: number) => contentHash(prev, String(max), ...turns.flatMap((t) => [t.role, t.content])),
    (prev: string | undefined, turns: readonly WmTurn[], max: number) => inner.summarize(prev, turns, max),
  );
  return { name: inner.name, summarize: run };
}

function memoExtractor(inner: EntityExtractor): EntityExtractor {
  const run = memoize(
    (turn: WmTurn, current: readonly WmEntity[]) => contentHash(turn.role, turn.content, JSON.stringify(current.map((e) => [e.key, e.value]))),
    (turn: WmTurn, current: readonly WmEntity[]) => inner.extract(turn, current),
  );
  return { name: inner.name, extract: run };
}

const backoff = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** attempt)));

export function createWorkingMemoryApi(deps: LearnDeps, optionsInput: WorkingMemoryOptionsInput = {}): WorkingMemoryApi {
  const o = parseWorkingMemoryOptions(optionsInput);
  const llm = o.useLlm ? deps.llm : undefined;
  const summarizer = memoSummarizer(llm ? new LlmSummarizer(llm, deps.tokens) : new ExtractiveSummarizer(deps.tokens));
  const extractor = o.entities ? memoExtractor(llm ? new LlmEntityExtractor(llm) : new HeuristicEntityExtractor()) : undefined;
  const tenantOf = (t?: string) => t ?? deps.defaultTenant;
  const scrub = (t: string) => deps.scrub(t);

  async function load(tenant: string, sessionId: string): Promise<{ rec?: WorkingMemoryRecord | undefined; state: WorkingState }> {
    const rec = await deps.storage.getWorkingMemory(tenant, sessionId, deps.clock.now());
    return { rec, state: rec ? parseState(rec.state, sessionId) : emptyState() };
  }

  interface Applied<T> {
    state: WorkingState;
    result: T;
    evicted?: Evicted[];
  }

  async function mutate<T>(
    ref: { tenant?: string | undefined; sessionId: string; userId?: string | undefined },
    apply: (s: WorkingState, at: number) => Applied<T> | Promise<Applied<T>>,
  ) {
    const tenant = tenantOf(ref.tenant);
    for (let attempt = 1; ; attempt++) {
      const { rec, state } = await load(tenant, ref.sessionId);
      const at = deps.clock.now();
      const applied = await apply(state, at);
      const fitted = fitToCap(withWriter(applied.state, ref.userId), o, deps.tokens);
      try {
        const saved = await deps.storage.putWorkingMemory(
          {
            tenant,
            sessionId: ref.sessionId,
            state: stateToJson(fitted.state),
            updatedAt: at,
            expiresAt: o.ttlMinutes > 0 ? at + o.ttlMinutes * 60_000 : undefined,
          },
          rec?.version ?? 0,
        );
        const edit: EditResult = { version: saved.version, tokens: deps.tokens.count(renderState(fitted.state)), evicted: [...(applied.evicted ?? []), ...fitted.evicted] };
        return { edit, result: applied.result };
      } catch (e) {
        if (!isEngramError(e, 'CONFLICT') || attempt >= MAX_ATTEMPTS) throw e;
        await backoff(attempt);
      }
    }
  }

  /** Remembers who wrote, so forgetting that user finds this scratchpad (state.ts, `userIds`). */
  function withWriter(s: WorkingState, userId: string | undefined): WorkingState {
    if (userId === undefined || s.userIds?.includes(userId)) return s;
    return { ...s, userIds: [...(s.userIds ?? []), userId] };
  }

  const api: WorkingMemoryApi = {
    options: o,

    async view(raw) {
      const ref = parse(sessionRefSchema, raw, 'session');
      const tenant = tenantOf(ref.tenant);
      const { rec, state } = await load(tenant, ref.sessionId);
      const text = renderState(state);
      return {
        tenant,
        sessionId: ref.sessionId,
        version: rec?.version ?? 0,
        plan: state.plan,
        items: state.items,
        entities: state.entities,
        summary: state.summary,
        turns: state.turns,
        text,
        tokens: deps.tokens.count(text),
        maxTokens: o.maxTokens,
        evictedCount: state.evictedCount,
      };
    },

    async toContext(raw, opts) {
      const ref = parse(sessionRefSchema, raw, 'session');
      return renderState((await load(tenantOf(ref.tenant), ref.sessionId)).state, opts);
    },

    async addTurn(raw) {
      const input = parse(turnInputSchema, raw, 'turn');
      const role: TurnRole = input.role === 'assistant' ? 'agent' : input.role;
      const content = scrub(input.content);
      const { edit, result } = await mutate(input, async (s, at) => {
        const r = await addTurn(s, { role, content }, at, o, { summarizer, extractor, tokens: deps.tokens });
        return { state: r.state, result: r.entities, evicted: r.evicted };
      });
      return { ...edit, entities: result };
    },

    async append(raw) {
      const input = parse(appendInputSchema, raw, 'working memory item');
      const item = { content: scrub(input.content), kind: input.kind, source: input.source === undefined ? undefined : scrub(input.source), priority: input.priority };
      const { edit, result } = await mutate(input, (s, at) => {
        const r = appendItem(s, item, at, o, deps.tokens);
        return { state: r.state, result: r.item };
      });
      return { ...edit, item: result };
    },

    async replace(raw) {
      const input = parse(replaceInputSchema, raw, 'working memory edit');
      const change: ReplaceEdit = {
        ...input,
        content: input.content === undefined ? undefined : scrub(input.content),
        source: input.source === undefined ? undefined : scrub(input.source),
      };
      const { edit, result } = await mutate(input, (s) => {
        const r = replaceItem(s, change, o, deps.tokens);
        return { state: r.state, result: r.item };
      });
      return { ...edit, item: result };
    },

    async remove(raw) {
      const input = parse(removeInputSchema, raw, 'working memory removal');
      const { edit, result } = await mutate(input, (s) => {
        const r = removeItem(s, input.id);
        return { state: r.state, result: r.item };
      });
      return { ...edit, item: result };
    },

    async setPlan(raw) {
      const input = parse(planInputSchema, raw, 'plan');
      const plan = input.plan === null ? null : scrub(input.plan);
      return (await mutate(input, (s) => ({ state: setPlan(s, plan, o, deps.tokens), result: undefined }))).edit;
    },

    async setEntity(raw) {
      const input = parse(entityInputSchema, raw, 'key fact');
      const value = input.value === null ? null : scrub(input.value);
      // The key is scrubbed too (deterministic, so setting the same key again still replaces it).
      return (await mutate(input, (s, at) => ({ state: setEntity(s, scrub(input.key), value, at, o), result: undefined }))).edit;
    },

    async pageOut(raw) {
      const input = parse(pageOutInputSchema, raw, 'page-out');
      if (!deps.remember) throw new EngramError('UNAVAILABLE', 'page-out needs long-term memory, and none is attached to working memory');
      const tenant = tenantOf(input.tenant);
      const item = (await load(tenant, input.sessionId)).state.items.find((i) => i.id === input.id);
      if (!item) throw new EngramError('NOT_FOUND', `no working-memory item ${input.id}`, { issues: [{ path: 'id', message: 'unknown item id' }] });
      // Durable in long-term memory first; only then does it leave the scratchpad.
      const { id: memoryId } = await deps.remember(item.content, {
        tenant,
        userId: input.userId,
        agentId: input.agentId,
        sessionId: input.sessionId,
        source: item.source ?? `working-memory:${input.sessionId}`,
        tags: ['working-memory', ...(input.tags ?? [])],
        metadata: { workingMemoryItem: item.id, kind: item.kind },
      });
      const { edit } = await mutate(input, (s) => (s.items.some((i) => i.id === item.id) ? { state: removeItem(s, item.id).state, result: undefined } : { state: s, result: undefined }));
      return { ...edit, item, memoryId };
    },

    async pageIn(raw) {
      const input = parse(pageInInputSchema, raw, 'page-in');
      if (!deps.search) throw new EngramError('UNAVAILABLE', 'page-in needs long-term memory search, and none is attached to working memory');
      const tenant = tenantOf(input.tenant);
      const hits = await deps.search(input.query, {
        tenant,
        userId: input.userId,
        agentId: input.agentId,
        k: input.k,
        ...(input.kinds ? { kinds: input.kinds as DocKind[] } : {}),
      });
      const { edit, result } = await mutate(input, (s, at) => {
        let state = s;
        const added: WmItem[] = [];
        for (const h of hits) {
          const source = `${h.kind}:${h.id}`;
          if (state.items.some((i) => i.kind === 'paged_in' && i.source === source)) continue;
          const r = appendItem(state, { content: h.text, kind: 'paged_in', source, priority: input.priority }, at, o, deps.tokens);
          state = r.state;
          added.push(r.item);
        }
        return { state, result: added };
      });
      return { ...edit, items: result };
    },

    async clear(raw) {
      const ref = parse(sessionRefSchema, raw, 'session');
      return deps.storage.deleteWorkingMemory(tenantOf(ref.tenant), ref.sessionId);
    },
  };
  return api;
}
