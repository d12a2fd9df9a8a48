/**
 * Test support (not a test): `LearnDeps` over real parts — a SQLite file in a temp dir, the USE-lite model on
 * the main thread, the real PII scrubber and token counter. `index()` does what the background indexer does.
 */
import { parseEngramConfig } from '../../core/config.js';
import { createTokenCounter } from '../../core/tokens.js';
import type { Clock } from '../../ports/clock.js';
import type { Embedder } from '../../ports/embedder.js';
import { embedWith, indexPending, openTestStore, realEmbedder, type TestStore } from '../../read/e2e.test-support.js';
import { createScrubber } from '../../write/scrub.js';
import type { LearnDeps } from './deps.js';

export interface TestLearn {
  deps: LearnDeps;
  store: TestStore;
  embedder: Embedder;
  /** Embeds everything pending, as the background indexer would. */
  index(): Promise<number>;
  /** How many times the capability asked the indexer to wake up. */
  notified(): number;
  close(): Promise<void>;
}

export async function openTestLearn(over: Partial<LearnDeps> = {}, clock?: Clock): Promise<TestLearn> {
  const embedder = await realEmbedder();
  const store = await openTestStore(embedder.model, embedder.dimension);
  const scrubber = createScrubber(parseEngramConfig({}).pii);
  let notifications = 0;
  let t = Date.UTC(2025, 0, 1);
  const deps: LearnDeps = {
    storage: store.storage,
    embedQuery: embedWith(embedder),
    clock: clock ?? { now: () => (t += 1000) },
    tokens: createTokenCounter('cl100k_base'),
    notifyIndexer: () => {
      notifications++;
    },
    defaultTenant: 'default',
    scrub: (text) => scrubber.scrub(text).text,
    ...over,
  };
  return {
    deps,
    store,
    embedder,
    index: () => indexPending(store.storage, embedder),
    notified: () => notifications,
    close: () => store.close(),
  };
}
