/**
 * The storage conformance suite: semantics every `Storage` adapter must share, run unchanged against
 * each one. An adapter's test file calls
 *
 *   describeStorageConformance('sqlite', async () => ({ storage, reopen, cleanup }));
 *
 * where `open` returns a fresh, empty, uninitialised storage (the suite calls `init`), `reopen` (for
 * durable adapters) opens the same data again after the suite closed the first instance, and `cleanup`
 * removes whatever `open` created. Differences between adapters are expressed as capability flags on
 * `storage.capabilities`, never by adapter name.
 */
import { describe } from 'vitest';
import { describeEpisodes } from './storage-conformance-episodes.js';
import { describeFacts } from './storage-conformance-facts.js';
import { describeFilterAgreement } from './storage-conformance-filters.js';
import { describeGraph } from './storage-conformance-graph.js';
import { describeLearnRetention } from './storage-conformance-learn-retention.js';
import { describeLinks } from './storage-conformance-links.js';
import { describeLogs } from './storage-conformance-logs.js';
import { describeProceduresAndExamples } from './storage-conformance-procedures.js';
import { describeRetention } from './storage-conformance-retention.js';
import { describeSearch } from './storage-conformance-search.js';
import { describeSessions } from './storage-conformance-sessions.js';
import { describeTenancy } from './storage-conformance-tenancy.js';
import { describeTimeline } from './storage-conformance-timeline.js';
import { useStorageHarness, type OpenStorage } from './storage-harness.js';

export type { OpenStorage } from './storage-harness.js';

export function describeStorageConformance(name: string, open: OpenStorage): void {
  describe(`storage conformance: ${name}`, () => {
    const h = useStorageHarness(open);
    describeTimeline(h);
    describeFacts(h);
    describeSearch(h);
    describeRetention(h);
    describeTenancy(h);
    describeLogs(h);
    describeFilterAgreement(h);
    // The learn layer: episodes, links and evidence, procedures and examples, sessions and keys.
    describeEpisodes(h);
    describeLinks(h);
    describeProceduresAndExamples(h);
    describeSessions(h);
    describeLearnRetention(h);
    // The knowledge graph: entities and versioned relations.
    describeGraph(h);
  });
}
