/**
 * Procedural memory on storage: `findApplicable` (trigger match × Laplace success rate, see ../procedures.ts,
 * with stored trigger vectors when the procedure's doc is embedded), `recordOutcome`, `list`, `put`, and
 * distillation of successful episodes into procedures for `consolidate()`.
 */
import { z } from 'zod';
import { procedureDocText } from '../../core/docs-learn.js';
import { EngramError } from '../../core/errors.js';
import { assertId, newId } from '../../core/ids.js';
import { contentHash } from '../../core/text.js';
import type { Episode, Procedure } from '../../core/types.js';
import { parseWith } from '../../core/validate.js';
import { findApplicable, learnFromEpisode, recordOutcome, type ProcedureMatch } from '../procedures.js';
import type { EngineContext } from './context.js';
import { loadSegmentEvents, toDescribeEvent } from './episode-record.js';

const id = z.string().min(1).max(200);
const text = (max: number) => z.string().trim().min(1).max(max);

const procedureInputSchema = z
  .object({
    id: id.optional(),
    tenant: id.optional(),
    userId: id.optional(),
    agentId: id.optional(),
    sessionId: id.optional(),
    taskId: id.optional(),
    name: text(200),
    trigger: text(2000),
    steps: z.array(text(2000)).min(1).max(100),
    preconditions: z.array(text(2000)).max(50).default([]),
    notes: z.array(text(2000)).max(1000).default([]),
    successCount: z.number().int().min(0).default(0),
    failureCount: z.number().int().min(0).default(0),
    sourceEpisodeIds: z.array(id).max(1000).default([]),
  })
  .strict();

export type ProcedureInput = z.input<typeof procedureInputSchema>;

export interface ProceduresApi {
  /** Procedures whose trigger matches the situation, best first (score = match × success rate). */
  findApplicable(situation: string, opts?: { tenant?: string; limit?: number }): Promise<ProcedureMatch[]>;
  /** One more use: success/failure count, last use, and the notes. */
  recordOutcome(id: string, success: boolean, notes?: string | string[], opts?: { tenant?: string }): Promise<Procedure>;
  list(opts?: { tenant?: string; limit?: number }): Promise<Procedure[]>;
  /** Creates a procedure, or replaces the one with `id` (its creation time is kept). */
  put(input: ProcedureInput): Promise<Procedure>;
}

export function proceduresApi(ctx: EngineContext, defaultTenant: string): ProceduresApi {
  const tenantOf = (t?: string) => t ?? defaultTenant;
  return {
    async findApplicable(situation, opts = {}) {
      if (typeof situation !== 'string' || situation.trim() === '') {
        throw new EngramError('VALIDATION', 'situation must be a non-empty string', { issues: [{ path: 'situation', message: 'required' }] });
      }
      const tenant = tenantOf(opts.tenant);
      const procedures = await ctx.storage.listProcedures({ tenant, limit: 5000 });
      if (procedures.length === 0) return [];
      const hashes = new Map(procedures.map((p) => [p.id, contentHash(procedureDocText(p))]));
      const stored = await ctx.storage.getEmbeddings([...hashes.values()]);
      const triggerVectors = new Map<string, Float32Array>();
      for (const [pid, h] of hashes) {
        const v = stored.get(h);
        if (v) triggerVectors.set(pid, v);
      }
      const vector = triggerVectors.size > 0 && ctx.embedder ? (await ctx.embedder.embed([situation]))[0] : undefined;
      const options = { ...ctx.settings.procedures, ...(opts.limit !== undefined ? { limit: opts.limit } : {}) };
      return findApplicable({ text: situation, vector }, procedures, { triggerVectors, options });
    },
    async recordOutcome(pid, success, notes, opts = {}) {
      assertId('procedure', pid);
      if (typeof success !== 'boolean') throw new EngramError('VALIDATION', 'success must be a boolean', { issues: [{ path: 'success', message: 'expected true or false' }] });
      const tenant = tenantOf(opts.tenant);
      const [proc] = await ctx.storage.getProcedures(tenant, [pid]);
      if (!proc) throw new EngramError('NOT_FOUND', `no procedure ${pid}`);
      const next = recordOutcome(proc, success, notes, ctx.clock.now(), ctx.settings.procedures);
      await ctx.storage.putProcedure(next);
      return next;
    },
    async list(opts = {}) {
      return ctx.storage.listProcedures({ tenant: tenantOf(opts.tenant), ...(opts.limit !== undefined ? { limit: opts.limit } : {}) });
    },
    async put(input) {
      const p = parseWith(procedureInputSchema, input, { what: 'procedure' });
      const tenant = tenantOf(p.tenant);
      const now = ctx.clock.now();
      const existing = p.id ? (await ctx.storage.getProcedures(tenant, [assertId('procedure', p.id)]))[0] : undefined;
      const { tenant: _t, id: _id, ...fields } = p;
      const proc: Procedure = {
        ...fields,
        id: p.id ?? newId('procedure', now),
        tenant,
        lastUsedAt: existing?.lastUsedAt,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      };
      await ctx.storage.putProcedure(proc);
      return proc;
    },
  };
}

export interface ProcedureLearning {
  created: Procedure[];
  reinforced: Procedure[];
}

/**
 * Successful multi-step episodes become procedures, or reinforce the one they repeat. An episode is used once:
 * procedures remember their source episodes.
 */
export async function learnProcedures(ctx: EngineContext, tenant: string, episodes: readonly Episode[]): Promise<ProcedureLearning> {
  const out: ProcedureLearning = { created: [], reinforced: [] };
  let existing = await ctx.storage.listProcedures({ tenant, limit: 5000 });
  const used = new Set(existing.flatMap((p) => p.sourceEpisodeIds));
  for (const episode of episodes) {
    if (episode.outcome !== 'SUCCESS' || used.has(episode.id)) continue;
    const events = await loadSegmentEvents(ctx.storage, tenant, episode.eventIds);
    const learned = learnFromEpisode(episode, events.map(toDescribeEvent), { existing, options: ctx.settings.procedures });
    const now = ctx.clock.now();
    if (learned.action === 'create') {
      const proc: Procedure = { ...learned.draft, id: newId('procedure', now), createdAt: now, updatedAt: now };
      await ctx.storage.putProcedure(proc);
      out.created.push(proc);
      existing = [...existing, proc];
    } else if (learned.action === 'reinforce') {
      const proc = existing.find((p) => p.id === learned.procedureId)!;
      const next = recordOutcome(proc, true, `succeeded again in episode ${episode.id}`, now, ctx.settings.procedures);
      next.sourceEpisodeIds = [...next.sourceEpisodeIds, episode.id];
      await ctx.storage.putProcedure(next);
      out.reinforced.push(next);
      existing = existing.map((p) => (p.id === next.id ? next : p));
    }
    used.add(episode.id);
  }
  return out;
}
