/**
 * `EngramSession`: an OpenAI Agents SDK `Session` whose history is Engram's timeline (see items.ts for the
 * layout). `run(agent, input, { session })` reads the history before a turn and appends the turn's items after
 * it; the same items are Engram events, so they also feed episodes, search and getContext.
 */
import { randomUUID } from 'node:crypto';
import type { AgentInputItem, Session } from '@openai/agents-core';
import { EngramError } from '../../core/errors.js';
import type { MemoryEvent } from '../../core/types.js';
import type { Memory } from '../../memory.js';
import type { EventInput } from '../../write/input.js';
import { eventToItem, ITEM_TAG, itemToEvent } from './items.js';

export interface EngramSessionOptions {
  memory: Memory;
  /** The conversation's id (Engram's session scope); a random UUID when left out. */
  sessionId?: string;
  tenant?: string;
  userId?: string;
  agentId?: string;
}

const PAGE = 10_000;
const FORGET_CHUNK = 1_000;

export class EngramSession implements Session {
  private readonly memory: Memory;
  private readonly sessionId: string;
  private readonly scope: { tenant?: string; userId?: string; agentId?: string; sessionId: string };

  constructor(opts: EngramSessionOptions) {
    if (opts.sessionId !== undefined && (typeof opts.sessionId !== 'string' || opts.sessionId.trim() === '')) {
      throw new EngramError('VALIDATION', 'invalid sessionId: a non-empty string', { issues: [{ path: 'sessionId', message: 'a non-empty string' }] });
    }
    this.memory = opts.memory;
    this.sessionId = opts.sessionId ?? randomUUID();
    this.scope = {
      sessionId: this.sessionId,
      ...(opts.tenant ? { tenant: opts.tenant } : {}),
      ...(opts.userId ? { userId: opts.userId } : {}),
      ...(opts.agentId ? { agentId: opts.agentId } : {}),
    };
  }

  async getSessionId(): Promise<string> {
    return this.sessionId;
  }

  /** The session's items, oldest first; with `limit`, the latest `limit` of them. */
  async getItems(limit?: number): Promise<AgentInputItem[]> {
    if (limit !== undefined && limit <= 0) return [];
    const events = limit !== undefined && limit <= PAGE ? await this.fetch({ lastN: limit }) : await this.all();
    const items = events.flatMap((e) => {
      const item = eventToItem(e);
      return item ? [item] : [];
    });
    return limit === undefined ? items : items.slice(-limit);
  }

  /** Appends the items as one atomic batch of events (all or none). */
  async addItems(items: AgentInputItem[]): Promise<void> {
    if (items.length === 0) return;
    const events: EventInput[] = items.map((item) => {
      const e = itemToEvent(item);
      return { ...this.scope, ...e, tags: [ITEM_TAG] };
    });
    await this.memory.logEvents(events);
  }

  /** Removes and returns the latest item; the event is forgotten (physically deleted), not hidden. */
  async popItem(): Promise<AgentInputItem | undefined> {
    const [last] = await this.fetch({ lastN: 1 });
    if (!last) return undefined;
    await this.memory.forget({ ...(this.scope.tenant ? { tenant: this.scope.tenant } : {}), ids: [last.id] });
    return eventToItem(last);
  }

  /** Forgets every item of the session; other events in the same Engram session are left alone. */
  async clearSession(): Promise<void> {
    const ids = (await this.all()).map((e) => e.id);
    for (let i = 0; i < ids.length; i += FORGET_CHUNK) {
      await this.memory.forget({ ...(this.scope.tenant ? { tenant: this.scope.tenant } : {}), ids: ids.slice(i, i + FORGET_CHUNK) });
    }
  }

  private fetch(page: { lastN?: number; afterSeq?: number; limit?: number }): Promise<MemoryEvent[]> {
    return this.memory.fetchEvents({ ...this.scope, tags: [ITEM_TAG], ...page });
  }

  private async all(): Promise<MemoryEvent[]> {
    const out: MemoryEvent[] = [];
    for (let afterSeq = 0; ; ) {
      const page = await this.fetch({ afterSeq, limit: PAGE });
      out.push(...page);
      if (page.length < PAGE) return out;
      afterSeq = page[page.length - 1]!.seq;
    }
  }
}
