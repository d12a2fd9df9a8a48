/**
 * `EngramStore`: a LangGraph.js `BaseStore` whose items are Engram facts (see mapping.ts for the layout). Graphs
 * compiled with `{ store: new EngramStore({ memory }) }` keep their long-term memory in Engram, where it is
 * versioned, searchable with Engram's hybrid retrieval and part of `getContext` like any other fact.
 *
 * LangGraph wraps a store in its AsyncBatchedStore and calls only `batch`, so `batch` is the implementation;
 * `put` is overridden only to accept a per-item TTL.
 */
import {
  BaseStore,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchItem,
  type SearchOperation,
} from '@langchain/langgraph-checkpoint';
import { EngramError } from '../../core/errors.js';
import type { Fact } from '../../core/types.js';
import type { Memory } from '../../memory.js';
import type { Clock } from '../../ports/clock.js';
import { hasUnpushedConditions, matchesFilter, parseItemFilter, pushdownFilter } from './filter.js';
import {
  assertKey,
  assertNamespace,
  factKeyOf,
  hasPrefix,
  itemMetadata,
  itemOf,
  matchesCondition,
  namespacePath,
  searchText,
  toJsonValue,
  type StoredItem,
} from './mapping.js';

export interface EngramStoreOptions {
  memory: Memory;
  /** Tenant of every item (default: the memory's default tenant). */
  tenant?: string;
  /** Engram scope of every item, e.g. one store per agent. Reads see only this scope. */
  scope?: { userId?: string; agentId?: string };
  /** Which value fields are indexed for `query` search (LangGraph path syntax; default `["$"]`, the whole value). */
  index?: { fields?: string[] };
  /** Items expire this many minutes after their last put unless a put says otherwise. */
  ttl?: { defaultTtl?: number };
  /** Time source for TTLs; pass the memory's clock when it has a custom one. */
  clock?: Clock;
}

/** A put operation with an optional TTL in minutes (LangGraph's unit); `null` keeps the item forever. */
export type EngramPutOperation = PutOperation & { ttl?: number | null };

const MAX_SEARCH_K = 1000;

export class EngramStore extends BaseStore {
  private readonly memory: Memory;
  private readonly tenant: string;
  private readonly scope: { userId?: string; agentId?: string };
  private readonly fields: string[];
  private readonly defaultTtl: number | undefined;
  private readonly clock: Clock;

  constructor(opts: EngramStoreOptions) {
    super();
    this.memory = opts.memory;
    this.tenant = opts.tenant ?? opts.memory.config.defaultTenant;
    this.scope = { ...(opts.scope?.userId ? { userId: opts.scope.userId } : {}), ...(opts.scope?.agentId ? { agentId: opts.scope.agentId } : {}) };
    this.fields = opts.index?.fields ?? ['$'];
    this.defaultTtl = validTtl(opts.ttl?.defaultTtl, 'ttl.defaultTtl') ?? undefined;
    this.clock = opts.clock ?? { now: () => Date.now() };
  }

  /** Runs the operations in order, so a get after a put in the same batch sees it. */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    for (const op of operations) {
      if ('value' in op) results.push(await this.putOp(op as EngramPutOperation));
      else if ('namespacePrefix' in op) results.push(await this.searchOp(op));
      else if ('key' in op) results.push(await this.getOp(op));
      else results.push(await this.listOp(op as ListNamespacesOperation));
    }
    return results as OperationResults<Op>;
  }

  override async put(namespace: string[], key: string, value: Record<string, unknown>, index?: false | string[], options?: { ttl?: number | null }): Promise<void> {
    assertNamespace(namespace, 'namespace', { allowEmpty: false });
    if (namespace[0] === 'langgraph') throw new EngramError('VALIDATION', 'invalid namespace: the root label "langgraph" is reserved', { issues: [{ path: 'namespace.0', message: 'reserved' }] });
    await this.batch([{ namespace, key, value, index, ...(options?.ttl !== undefined ? { ttl: options.ttl } : {}) } as EngramPutOperation]);
  }

  private async liveFact(namespace: string[], key: string): Promise<Fact | undefined> {
    return this.memory.storage.getLiveFact(this.tenant, factKeyOf(namespace, key), this.clock.now());
  }

  private async getOp(op: GetOperation): Promise<Item | null> {
    assertNamespace(op.namespace, 'namespace', { allowEmpty: true });
    assertKey(op.key);
    const fact = await this.liveFact(op.namespace, op.key);
    const item = fact && this.inScope(fact) ? itemOf(fact) : undefined;
    return item ? toItem(item) : null;
  }

  private async putOp(op: EngramPutOperation): Promise<void> {
    assertNamespace(op.namespace, 'namespace', { allowEmpty: false });
    assertKey(op.key);
    const factKey = factKeyOf(op.namespace, op.key);
    const now = this.clock.now();
    const live = await this.memory.storage.getLiveFact(this.tenant, factKey, now);
    if (op.value === null) {
      if (live) await this.memory.forget({ tenant: this.tenant, ids: [live.id] });
      return;
    }
    const value = toJsonValue(op.value);
    const ttl = op.ttl === undefined ? this.defaultTtl : validTtl(op.ttl, 'ttl');
    const expiresAt = ttl ? now + ttl * 60_000 : undefined;
    const indexed = op.index !== false;
    const text = searchText(op.key, value, Array.isArray(op.index) ? op.index : this.fields);
    const createdAt = (live && itemOf(live)?.createdAt.getTime()) ?? now;
    const input = {
      tenant: this.tenant,
      ...this.scope,
      key: factKey,
      text,
      source: 'langgraph',
      tags: ['langgraph'],
      metadata: itemMetadata(op.namespace, op.key, value, createdAt, indexed),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    };
    const result = await this.memory.remember(input);
    // Same text, other value (a field outside the index changed) or another TTL: Engram deduplicated the write,
    // so the lineage is replaced instead.
    if (result.status === 'duplicate' && !sameItem(result.fact, input.metadata, expiresAt)) {
      await this.memory.forget({ tenant: this.tenant, ids: [result.fact.id] });
      await this.memory.remember(input);
    }
  }

  private async searchOp(op: SearchOperation): Promise<SearchItem[]> {
    assertNamespace(op.namespacePrefix, 'namespacePrefix', { allowEmpty: true });
    const limit = op.limit ?? 10;
    const offset = op.offset ?? 0;
    if (!(Number.isInteger(limit) && limit >= 0) || !(Number.isInteger(offset) && offset >= 0)) {
      throw new EngramError('VALIDATION', 'invalid search: limit and offset are non-negative integers', { issues: [{ path: 'limit', message: 'a non-negative integer' }] });
    }
    const conditions = parseItemFilter(op.filter);
    if (op.query !== undefined && op.query.trim() !== '') return this.querySearch(op.namespacePrefix, op.query, conditions, limit, offset);
    const items = (await this.scan())
      .filter((i) => hasPrefix(i.namespace, op.namespacePrefix) && matchesFilter(i.value, conditions))
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || a.key.localeCompare(b.key));
    return items.slice(offset, offset + limit).map((i) => toItem(i));
  }

  /** Engram's hybrid search over the items' text, narrowed in storage to the prefix and the pushable filter. */
  private async querySearch(prefix: string[], query: string, conditions: ReturnType<typeof parseItemFilter>, limit: number, offset: number): Promise<SearchItem[]> {
    const want = offset + limit;
    if (want === 0) return [];
    const where: Record<string, unknown>[] = [prefix.length > 0 ? { 'metadata.lg_prefixes': { contains: namespacePath(prefix) } } : { 'metadata.lg_key': { exists: true } }];
    const pushed = pushdownFilter(conditions);
    if ('and' in pushed) where.push(pushed);
    // Conditions left to the process may reject hits, so ask for more than needed.
    const k = Math.min(MAX_SEARCH_K, hasUnpushedConditions(conditions) ? want * 4 : want);
    const hits = await this.memory.search({ tenant: this.tenant, ...this.scope, query, k, kinds: ['fact'], filter: { and: where } });
    const out: SearchItem[] = [];
    const seen = new Set<string>();
    for (const hit of hits) {
      const fact = await this.memory.storage.getFact(this.tenant, hit.doc.refId);
      const item = fact && fact.expiredAt === undefined ? itemOf(fact) : undefined;
      if (!item || !item.indexed || !matchesFilter(item.value, conditions)) continue;
      const id = factKeyOf(item.namespace, item.key);
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(toItem(item, hit.score));
    }
    // Items put with `index: false` are never ranked; like LangGraph's stores, they fill the page after those that are.
    if (out.length < want) {
      const unranked = (await this.scan()).filter((i) => !i.indexed && hasPrefix(i.namespace, prefix) && matchesFilter(i.value, conditions));
      out.push(...unranked.slice(0, want - out.length).map((i) => toItem(i)));
    }
    return out.slice(offset, want);
  }

  private async listOp(op: ListNamespacesOperation): Promise<string[][]> {
    const limit = op.limit ?? 100;
    const offset = op.offset ?? 0;
    const paths = new Map<string, string[]>();
    for (const item of await this.scan()) {
      if (!(op.matchConditions ?? []).every((c) => matchesCondition(item.namespace, c))) continue;
      const ns = op.maxDepth === undefined ? item.namespace : item.namespace.slice(0, op.maxDepth);
      paths.set(namespacePath(ns), ns);
    }
    const sorted = [...paths.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, ns]) => ns);
    return sorted.slice(offset, offset + limit);
  }

  /**
   * Every live item of this store's tenant and scope. Listing and filter-only search read the scope's facts;
   * give the store its own scope (or tenant) when that scope holds many other facts.
   */
  private async scan(): Promise<StoredItem[]> {
    const facts = await this.memory.storage.listFacts({ tenant: this.tenant, scope: this.scope, now: this.clock.now() });
    return facts.flatMap((f) => {
      const item = itemOf(f);
      return item ? [item] : [];
    });
  }

  private inScope(fact: Fact): boolean {
    return (this.scope.userId === undefined || fact.userId === this.scope.userId) && (this.scope.agentId === undefined || fact.agentId === this.scope.agentId);
  }
}

function toItem(item: StoredItem, score?: number): SearchItem {
  return { namespace: item.namespace, key: item.key, value: item.value, createdAt: item.createdAt, updatedAt: item.updatedAt, ...(score !== undefined ? { score } : {}) };
}

function sameItem(fact: Fact, metadata: Record<string, unknown>, expiresAt: number | undefined): boolean {
  return JSON.stringify(fact.metadata) === JSON.stringify(metadata) && fact.expiresAt === expiresAt;
}

function validTtl(ttl: number | null | undefined, path: string): number | null | undefined {
  if (ttl === undefined || ttl === null) return ttl;
  if (!(typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0)) {
    throw new EngramError('VALIDATION', `invalid ${path}: a positive number of minutes`, { issues: [{ path, message: 'a positive number of minutes' }] });
  }
  return ttl;
}
