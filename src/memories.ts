/**
 * Semantic memories as a Mem0 user handles them (docs/scopes.md#crud): list with filters and a cursor, read one
 * at a time, update by any version id (a new version of the same lineage; the old one is closed and leaves
 * search), delete by id (the whole lineage) and history by id. Every fact is one version of a lineage.
 */
import { z } from 'zod';
import { EngramError } from './core/errors.js';
import { assertId, isId } from './core/ids.js';
import { FACT_KINDS, type Fact } from './core/types.js';
import { parseWith, timeInput } from './core/validate.js';
import type { ForgetReport, Storage } from './ports/storage.js';
import { factHolds } from './read/time-travel.js';
import type { RememberResult } from './write/facts.js';
import type { FactInput } from './write/input.js';

const id = z.string().min(1).max(200);

const listSchema = z
  .object({
    tenant: id.optional(),
    userId: id.optional(),
    agentId: id.optional(),
    sessionId: id.optional(),
    taskId: id.optional(),
    kinds: z.array(z.enum(FACT_KINDS)).min(1).optional(),
    /** Valid time: each lineage's version that held then. */
    asOf: timeInput.optional(),
    /** Transaction time: what was recorded (and not yet replaced) by then. */
    knownAt: timeInput.optional(),
    /** Every version, superseded and ended ones too (no time rule). */
    includeExpired: z.boolean().default(false),
    limit: z.number().int().min(1).max(1000).default(100),
    /** `nextCursor` of the previous page. */
    cursor: z.string().min(1).max(200).optional(),
  })
  .strict();

export type ListInput = z.input<typeof listSchema>;

export interface ListPage {
  memories: Fact[];
  /** Pass as `cursor` for the next page; absent on the last page. */
  nextCursor?: string | undefined;
}

/** What an update may change; the scope and anything not given are kept from the current version. */
export type UpdateInput = Omit<FactInput, 'key' | 'tenant'>;

export interface MemoriesApi {
  list(input?: ListInput): Promise<ListPage>;
  /** One version by id; with `asOf`/`knownAt`, the version of its lineage served then (NOT_FOUND when none). */
  get(id: string, opts?: { tenant?: string; asOf?: number | string | Date; knownAt?: number | string | Date }): Promise<Fact>;
  update(id: string, input: UpdateInput, tenant?: string): Promise<RememberResult>;
  /** Deletes the whole lineage of a version id. NOT_FOUND when there is none. */
  delete(id: string, tenant?: string): Promise<ForgetReport>;
  /** Every version of the lineage of `idOrKey` (a version id or a lineage key), oldest first. */
  history(idOrKey: string, tenant?: string): Promise<Fact[]>;
}

const encodeCursor = (f: Fact): string => Buffer.from(JSON.stringify([f.recordedAt, f.id])).toString('base64url');

function decodeCursor(cursor: string): { recordedAt: number; id: string } {
  try {
    const [recordedAt, factId] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof recordedAt === 'number' && Number.isFinite(recordedAt) && typeof factId === 'string' && isId('fact', factId)) return { recordedAt, id: factId };
  } catch {
    // falls through to the error below
  }
  throw new EngramError('VALIDATION', 'cursor is not one this API returned', { issues: [{ path: 'cursor', message: 'invalid cursor' }] });
}

export interface MemoriesDeps {
  storage: Storage;
  now: () => number;
  defaultTenant: string;
  remember: (input: FactInput) => Promise<RememberResult>;
  forget: (input: { tenant: string; ids: string[] }) => Promise<ForgetReport>;
}

export function createMemoriesApi(deps: MemoriesDeps): MemoriesApi {
  const { storage } = deps;
  const tenantOf = (t?: string) => t ?? deps.defaultTenant;
  const getVersion = async (tenant: string, factId: string): Promise<Fact> => {
    assertId('fact', factId);
    const fact = await storage.getFact(tenant, factId);
    if (!fact) throw new EngramError('NOT_FOUND', `no memory ${factId}`);
    return fact;
  };
  const versions = async (tenant: string, idOrKey: string): Promise<Fact[]> => {
    const key = isId('fact', idOrKey) ? ((await storage.getFact(tenant, idOrKey))?.key ?? idOrKey) : idOrKey;
    return storage.getFactVersions({ tenant, key });
  };

  return {
    async list(input = {}) {
      const p = parseWith(listSchema, input, { what: 'memory list' });
      const scope = Object.fromEntries(Object.entries({ userId: p.userId, agentId: p.agentId, sessionId: p.sessionId, taskId: p.taskId }).filter(([, v]) => v !== undefined));
      const found = await storage.listFacts({
        tenant: tenantOf(p.tenant),
        scope,
        includeExpired: p.includeExpired,
        ...(p.kinds ? { kinds: p.kinds } : {}),
        ...(p.asOf !== undefined ? { asOf: p.asOf } : {}),
        ...(p.knownAt !== undefined ? { knownAt: p.knownAt } : {}),
        ...(p.cursor ? { after: decodeCursor(p.cursor) } : {}),
        limit: p.limit + 1,
        now: deps.now(),
      });
      const memories = found.slice(0, p.limit);
      return found.length > p.limit ? { memories, nextCursor: encodeCursor(memories.at(-1)!) } : { memories };
    },
    async get(factId, opts = {}) {
      const tenant = tenantOf(opts.tenant);
      const fact = await getVersion(tenant, factId);
      if (opts.asOf === undefined && opts.knownAt === undefined) return fact;
      const t = parseWith(z.object({ asOf: timeInput.optional(), knownAt: timeInput.optional() }).strict(), { asOf: opts.asOf, knownAt: opts.knownAt }, { what: 'memory read' });
      const then = [...(await storage.getFactVersions({ tenant, key: fact.key }))].reverse().find((f) => factHolds(f, t, deps.now()));
      if (!then) throw new EngramError('NOT_FOUND', `memory ${factId} has no version valid at that time`);
      return then;
    },
    async update(factId, input, tenantIn) {
      const tenant = tenantOf(tenantIn);
      const old = await getVersion(tenant, factId);
      if (typeof input !== 'object' || input === null || 'key' in input || 'tenant' in input) {
        throw new EngramError('VALIDATION', 'an update takes the new fields only (not key or tenant)', { issues: [{ path: 'key', message: 'not allowed' }] });
      }
      const current = (await storage.getLiveFact(tenant, old.key, deps.now())) ?? old;
      const kept: FactInput = {
        text: current.text,
        kind: current.kind,
        tags: current.tags,
        metadata: current.metadata,
        ...(current.userId !== undefined ? { userId: current.userId } : {}),
        ...(current.agentId !== undefined ? { agentId: current.agentId } : {}),
        ...(current.sessionId !== undefined ? { sessionId: current.sessionId } : {}),
        ...(current.taskId !== undefined ? { taskId: current.taskId } : {}),
        ...(current.subject !== undefined ? { subject: current.subject } : {}),
        ...(current.predicate !== undefined ? { predicate: current.predicate } : {}),
        ...(current.source !== undefined ? { source: current.source } : {}),
        ...(current.section !== undefined ? { section: current.section } : {}),
      };
      return deps.remember({ ...kept, ...input, tenant, key: old.key });
    },
    async delete(factId, tenantIn) {
      const tenant = tenantOf(tenantIn);
      await getVersion(tenant, factId);
      return deps.forget({ tenant, ids: [factId] });
    },
    async history(idOrKey, tenantIn) {
      if (typeof idOrKey !== 'string' || idOrKey === '') throw new EngramError('VALIDATION', 'history needs a memory id or key', { issues: [{ path: 'id', message: 'required' }] });
      const tenant = tenantOf(tenantIn);
      const all = await versions(tenant, idOrKey);
      if (all.length === 0 && isId('fact', idOrKey)) throw new EngramError('NOT_FOUND', `no memory ${idOrKey}`);
      return all;
    },
  };
}
