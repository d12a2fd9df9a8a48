/**
 * `engram/testing`: the storage conformance suite every adapter runs, so an adapter written outside this
 * repository can prove it keeps the Storage port's semantics. It runs under vitest (a peer dependency):
 *
 *   import { describeStorageConformance } from 'engram/testing';
 *   describeStorageConformance('my engine', async () => {
 *     const storage = await openMyStorage();
 *     return { storage, cleanup: () => storage.close() };
 *   });
 *
 * The factories build valid records for an adapter's own tests.
 */
export { describeStorageConformance, type OpenStorage } from './storage-conformance.js';
export { expectCode, initStorage, type StorageHarness } from './storage-harness.js';
export { makeEvent, makeEvents, makeFact, reviseFact, unitVector, seededRng, NOW, TEST_DIM, TEST_MODEL, type Rng } from './storage-factories.js';
export { makeApiKey, makeEpisode, makeEvidence, makeExample, makeLink, makeProcedure } from './storage-factories-learn.js';
