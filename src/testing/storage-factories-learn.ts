/**
 * Factories for the learn records (episodes, links, evidence, procedures, examples, working memory, API
 * keys), in the manner of `storage-factories.ts`: valid records with seeded random fields; overrides win.
 */
import { contentHash } from '../core/text.js';
import { newId } from '../core/ids.js';
import type { ApiKeyRecord, Episode, Example, FactEvidence, Link, Procedure } from '../core/types.js';
import { BASE_TS, sentence, sharedRng, type Rng } from './storage-factories.js';

/** A closed episode of 3 events unless overridden; `closed: false` gives an open one. */
export function makeEpisode(overrides: Partial<Episode> = {}, r: Rng = sharedRng()): Episode {
  const startTs = BASE_TS + Math.floor(r() * 1e9);
  const startSeq = 1 + Math.floor(r() * 1000);
  return {
    id: newId('episode'),
    tenant: 'tenant-a',
    streamKey: 'tenant-a/s1',
    sessionId: 's1',
    startSeq,
    endSeq: startSeq + 2,
    startTs,
    endTs: startTs + 60_000,
    eventIds: [newId('event'), newId('event'), newId('event')],
    summary: sentence(r, 7),
    outcome: 'SUCCESS',
    decisions: [sentence(r, 3)],
    assumptions: [],
    corrections: [],
    importance: Math.round(r() * 100) / 100,
    closed: true,
    metadata: {},
    recordedAt: startTs + 60_001,
    ...overrides,
  };
}

export function makeLink(overrides: Partial<Link> & Pick<Link, 'fromId' | 'toId'>, r: Rng = sharedRng()): Link {
  return {
    id: newId('link'),
    tenant: 'tenant-a',
    type: 'LED_TO',
    weight: Math.round(r() * 50) / 100 + 0.25,
    origin: 'inferred',
    createdAt: BASE_TS + Math.floor(r() * 1e9),
    ...overrides,
  };
}

export function makeEvidence(overrides: Partial<FactEvidence> & Pick<FactEvidence, 'factId' | 'episodeId'>, r: Rng = sharedRng()): FactEvidence {
  return {
    tenant: 'tenant-a',
    polarity: 'support',
    weight: Math.round(r() * 100) / 100,
    at: BASE_TS + Math.floor(r() * 1e9),
    ...overrides,
  };
}

export function makeProcedure(overrides: Partial<Procedure> = {}, r: Rng = sharedRng()): Procedure {
  const createdAt = BASE_TS + Math.floor(r() * 1e9);
  return {
    id: newId('procedure'),
    tenant: 'tenant-a',
    name: sentence(r, 3),
    trigger: sentence(r, 5),
    steps: [sentence(r, 4), sentence(r, 4)],
    preconditions: [],
    successCount: Math.floor(r() * 5),
    failureCount: Math.floor(r() * 3),
    notes: [],
    sourceEpisodeIds: [newId('episode')],
    createdAt,
    updatedAt: createdAt + 1000,
    ...overrides,
  };
}

/** `contentHash` follows query and response unless overridden, as the feedback path computes it. */
export function makeExample(overrides: Partial<Example> = {}, r: Rng = sharedRng()): Example {
  const query = overrides.query ?? sentence(r, 5);
  const response = overrides.response ?? sentence(r, 8);
  return {
    id: newId('example'),
    tenant: 'tenant-a',
    polarity: 'positive',
    query,
    response,
    origin: 'feedback',
    contentHash: contentHash(query, response),
    createdAt: BASE_TS + Math.floor(r() * 1e9),
    ...overrides,
  };
}

/** A tenant key; the hash is of a random secret that is never stored anywhere. */
export function makeApiKey(overrides: Partial<ApiKeyRecord> = {}, r: Rng = sharedRng()): ApiKeyRecord {
  const secret = `egk_${Math.floor(r() * 2 ** 52).toString(36)}${Math.floor(r() * 2 ** 52).toString(36)}`;
  return {
    id: newId('key'),
    tenant: 'tenant-a',
    role: 'tenant',
    name: 'ci key',
    prefix: secret.slice(0, 8),
    hash: contentHash(secret),
    createdAt: BASE_TS + Math.floor(r() * 1e9),
    ...overrides,
  };
}
