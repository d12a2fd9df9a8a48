/**
 * The records behind candidate docs: timeline events, facts, and episodes with their links, loaded for the chosen
 * items (tool rendering, conflict checks, outcome labels).
 */
import type { Fact, MemoryEvent } from '../core/types.js';
import type { Storage } from '../ports/storage.js';
import type { Candidate, ReadDeps } from './types.js';

/** The timeline events behind event docs (tool, args, result, name), keyed by id. */
export async function loadEvents(storage: Storage, tenant: string, ids: readonly string[]): Promise<Map<string, MemoryEvent>> {
  if (ids.length === 0) return new Map();
  const events = await storage.getEvents(tenant, ids);
  return new Map(events.map((e) => [e.id, e]));
}

/** The facts behind fact docs (key, subject, predicate, value), keyed by id. */
export async function loadFacts(storage: Storage, tenant: string, ids: readonly string[]): Promise<Map<string, Fact>> {
  if (ids.length === 0) return new Map();
  const facts = storage.getFacts ? await storage.getFacts(tenant, ids) : await Promise.all(ids.map((id) => storage.getFact(tenant, id)));
  return new Map(facts.filter((f): f is Fact => f !== undefined).map((f) => [f.id, f]));
}

/**
 * Attaches events (tool rendering), facts (conflict checks, confidence) and episodes with their links (outcome
 * labels) to the chosen items.
 */
export async function attachRecords(deps: ReadDeps, tenant: string, items: readonly Candidate[]): Promise<Candidate[]> {
  const eventIds = items.filter((c) => c.doc.kind === 'event' && !c.event).map((c) => c.doc.refId);
  const factIds = items.filter((c) => c.doc.kind === 'fact' && !c.fact).map((c) => c.doc.refId);
  const episodeIds = items.filter((c) => c.doc.kind === 'episode').map((c) => c.doc.refId);
  const [events, facts, episodes, links] = await Promise.all([
    loadEvents(deps.storage, tenant, eventIds),
    loadFacts(deps.storage, tenant, factIds),
    episodeIds.length ? deps.storage.getEpisodes(tenant, episodeIds.filter((id) => !items.find((c) => c.doc.refId === id)?.episode)) : Promise.resolve([]),
    episodeIds.length ? deps.storage.getLinks({ tenant, ids: episodeIds, direction: 'both' }) : Promise.resolve([]),
  ]);
  const byId = new Map(episodes.map((e) => [e.id, e]));
  return items.map((c) => {
    const out: Candidate = { ...c, event: c.event ?? events.get(c.doc.refId), fact: c.fact ?? facts.get(c.doc.refId) };
    if (c.doc.kind === 'episode') {
      out.episode = c.episode ?? byId.get(c.doc.refId);
      out.links = links.filter((l) => l.fromId === c.doc.refId || l.toId === c.doc.refId);
    }
    return out;
  });
}
