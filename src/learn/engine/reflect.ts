/**
 * Reflection on storage: when the importance trigger fires, the reflector reads the window of recent events
 * and its insights become facts of kind 'insight' (provenance: origin 'reflection', `eventIds` = the events
 * each insight rests on). An insight's key ignores its counts ("3 of the last 5 outcomes failed" and "4 of the
 * last 6 …" are one lineage). A later reflection that only changes the counts writes nothing; one that says
 * something else (another tally, other co-occurring words) writes a new version.
 */
import { versionAfter } from './facts.js';
import { contentHash, normalizeText } from '../../core/text.js';
import type { Fact, MemoryEvent } from '../../core/types.js';
import { initialStats } from '../confidence.js';
import type { Insight, ReflectionRequest } from '../reflection.js';
import type { EngineContext } from './context.js';
import { isRedacted } from './episode-record.js';

export function insightKey(tenant: string, agentId: string | undefined, insight: Insight): string {
  const gist = normalizeText(insight.text)
    .toLowerCase()
    .replace(/\([^()]*\)/g, ' ')
    .replace(/\d+(?:\.\d+)?/g, '#')
    .replace(/[;,].*$/, '')
    .trim();
  return `insight:${contentHash(tenant, agentId, insight.kind, gist)}`;
}

export interface StoredInsight {
  fact: Fact;
  status: 'created' | 'versioned' | 'duplicate';
}

export async function reflectOn(ctx: EngineContext, tenant: string, request: ReflectionRequest): Promise<StoredInsight[]> {
  const events = (await ctx.storage.getEvents(tenant, request.eventIds)).filter((e) => !isRedacted(e));
  if (events.length === 0) return [];
  const insights = await ctx.reflector.reflect(events);
  const agentId = commonAgent(events);
  const out: StoredInsight[] = [];
  for (const insight of insights) out.push(await storeInsight(ctx, tenant, agentId, insight));
  return out;
}

function commonAgent(events: readonly MemoryEvent[]): string | undefined {
  const agents = new Set(events.map((e) => e.agentId));
  return agents.size === 1 ? [...agents][0] : undefined;
}

async function storeInsight(ctx: EngineContext, tenant: string, agentId: string | undefined, insight: Insight): Promise<StoredInsight> {
  const now = ctx.clock.now();
  const key = insightKey(tenant, agentId, insight);
  const live = await ctx.storage.getLiveFact(tenant, key, now);
  const hash = contentHash(insight.text);
  const uncounted = (t: string) => t.replace(/\d+(?:\.\d+)?/g, '#');
  if (live && (live.contentHash === hash || uncounted(live.text) === uncounted(insight.text))) return { fact: live, status: 'duplicate' };
  const fact: Fact = {
    ...versionAfter(live, key, now),
    tenant,
    ...(agentId ? { agentId } : {}),
    kind: 'insight',
    text: insight.text,
    tags: ['insight', insight.kind],
    pii: false,
    piiReport: { scrubbed: false, counts: {} },
    metadata: { insight: { kind: insight.kind } },
    confidence: initialStats('reflection').confidence,
    supportCount: insight.evidenceIds.length,
    contradictCount: 0,
    importance: insight.importance,
    validFrom: now,
    recordedAt: now,
    contentHash: hash,
    provenance: { origin: 'reflection', eventIds: [...insight.evidenceIds], note: `${ctx.reflector.name} reflector (${insight.kind})` },
  };
  const stored = await ctx.storage.putFact(fact);
  return { fact: stored.fact, status: stored.duplicate ? 'duplicate' : live ? 'versioned' : 'created' };
}
