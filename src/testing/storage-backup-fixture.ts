/**
 * A tenant holding every record kind a backup carries, in the states that make a copy lossy when mishandled:
 * a redacted event, a forgotten one (a gap in the seqs), an expired one not yet swept, a superseded fact
 * version with its successor's counters changed, evidence, open and closed episodes, a reinforced link,
 * procedures, examples, entities (aliases, observations, a summary) and relations (a closed edge and its
 * successor, valid times, citations of an event and a fact), a retrieval record, a working memory at version 2
 * and the audit records all this left.
 */
import { newId } from '../core/ids.js';
import type { BackupKind, BackupRecordKinds, Storage } from '../ports/storage.js';
import { BASE_TS, makeEvent, makeEvents, makeFact, NOW, reviseFact } from './storage-factories.js';
import { makeEntity, makeRelation } from './storage-conformance-graph.js';
import { makeEpisode, makeEvidence, makeExample, makeLink, makeProcedure } from './storage-factories-learn.js';

export const ALL_BACKUP_KINDS = ['event', 'fact', 'fact_evidence', 'episode', 'link', 'procedure', 'example', 'entity', 'relation', 'retrieval', 'working_memory', 'audit'] as const satisfies readonly BackupKind[];

export interface PopulatedTenant {
  eventIds: string[];
  redactedId: string;
  forgottenId: string;
  liveFactId: string;
  supersededFactId: string;
  closedRelationId: string;
  liveRelationId: string;
}

export async function populateEveryKind(storage: Storage, tenant: string): Promise<PopulatedTenant> {
  const events = [...makeEvents(6, { tenant, sessionId: 's1' }), ...makeEvents(2, { tenant }), makeEvent({ tenant, sessionId: 's1', expiresAt: BASE_TS })];
  events.push(makeEvent({ tenant, sessionId: 's2', metadata: { redacted: 'a metadata key that only looks like a tombstone' } }));
  await storage.appendEvents(events);
  const redactedId = events[2]!.id;
  const forgottenId = events[4]!.id;
  await storage.redactEvent(tenant, redactedId, 'asked by the user', NOW - 10);
  await storage.forget({ tenant, ids: [forgottenId] }, NOW - 5);

  const v1 = makeFact({ tenant, sessionId: 's1' });
  await storage.putFact(v1);
  const v2 = reviseFact(v1, 'the revised text of this fact about refunds');
  await storage.putFact(v2);
  await storage.updateFactStats(tenant, v2.id, { confidence: 0.9, supportCount: 3, contradictCount: 1 });
  await storage.putFact(makeFact({ tenant, validFrom: BASE_TS, validTo: BASE_TS + 1000, expiresAt: NOW + 86_400_000 }));

  const closed = makeEpisode({ tenant, streamKey: `${tenant}/s1`, eventIds: [events[0]!.id, events[1]!.id] });
  const open = makeEpisode({ tenant, streamKey: `${tenant}/s2`, closed: false, outcome: 'UNKNOWN' });
  await storage.putEpisode(closed);
  await storage.putEpisode(open);
  await storage.addFactEvidence([makeEvidence({ tenant, factId: v2.id, episodeId: closed.id, polarity: 'contradict' })]);
  const link = makeLink({ tenant, fromId: closed.id, toId: v2.id, type: 'LEARNED_FROM', evidence: 'seen twice' });
  await storage.putLinks([link]);
  await storage.putLinks([{ ...link, id: newId('link'), weight: 0.95 }]);
  await storage.putLinks([makeLink({ tenant, fromId: open.id, toId: closed.id, type: 'CONTINUATION' })]);
  await storage.putProcedure(makeProcedure({ tenant, lastUsedAt: NOW - 100 }));
  await storage.putExample(makeExample({ tenant, userId: 'u1' }));
  await storage.putExample(makeExample({ tenant, polarity: 'negative', reason: 'wrong answer' }));
  const cites = { origin: 'extraction' as const, eventIds: [events[0]!.id], factIds: [v2.id] };
  const [ana, lisbon, porto] = await storage.putEntities([
    makeEntity({ tenant, name: 'Ana Souza', aliases: ['Ana'], observations: ['speaks Portuguese'], summary: 'a customer', provenance: cites, userId: 'u1' }),
    makeEntity({ tenant, name: 'Lisbon', entityType: 'place', userId: 'u1', createdAt: BASE_TS + 1, updatedAt: BASE_TS + 2 }),
    makeEntity({ tenant, name: 'Porto', entityType: 'place', userId: 'u1' }),
  ]);
  const first = makeRelation({ tenant, userId: 'u1', sourceId: ana!.id, targetId: lisbon!.id, type: 'lives_in', text: 'Ana lives in Lisbon.', validFrom: BASE_TS, provenance: cites });
  await storage.putRelations([{ relation: first }]);
  const moved = makeRelation({ tenant, userId: 'u1', sourceId: ana!.id, targetId: porto!.id, type: 'lives_in', text: 'Ana moved to Porto.', validFrom: BASE_TS + 500, recordedAt: BASE_TS + 600, confidence: 0.7 });
  await storage.putRelations([{ relation: moved, exclusive: true }]);
  await storage.putRetrieval({ id: newId('retrieval'), tenant, query: 'what about refunds', createdAt: NOW - 50, itemIds: [v2.id, events[0]!.id], config: { k: 5, nested: { on: true } } });
  const wm = await storage.putWorkingMemory({ tenant, sessionId: 's1', state: { notes: ['first'] }, updatedAt: NOW - 40 }, 0);
  await storage.putWorkingMemory({ tenant, sessionId: 's1', state: { notes: ['first', 'second'], goal: 'refund' }, updatedAt: NOW - 30, expiresAt: NOW + 60_000 }, wm.version);
  await storage.putWorkingMemory({ tenant, sessionId: 's2', state: {}, updatedAt: NOW - 20 }, 0);
  return { eventIds: events.map((e) => e.id), redactedId, forgottenId, liveFactId: v2.id, supersededFactId: v1.id, closedRelationId: first.id, liveRelationId: moved.id };
}

/** Every record of `kind` the tenant holds, page by page (small pages, so paging itself is exercised). */
export async function listAllOf<K extends BackupKind>(storage: Storage, kind: K, tenant: string, pageSize = 3): Promise<BackupRecordKinds[K][]> {
  const out: BackupRecordKinds[K][] = [];
  let after: string | undefined;
  do {
    const page = await storage.listBackupPage(kind, tenant, after, pageSize);
    out.push(...page.records);
    after = page.next;
  } while (after !== undefined);
  return out;
}

/** Every record of every kind, each as the record it is minus its tenant (to compare two tenants or stores). */
export async function snapshotTenant(storage: Storage, tenant: string): Promise<Record<BackupKind, unknown[]>> {
  const out = {} as Record<BackupKind, unknown[]>;
  for (const kind of ALL_BACKUP_KINDS) {
    out[kind] = (await listAllOf(storage, kind, tenant)).map((r) => {
      const { tenant: _t, ...rest } = r as { tenant: string };
      return JSON.parse(JSON.stringify(rest)) as unknown;
    });
  }
  return out;
}
