import { afterEach, describe, expect, it } from 'vitest';
import { openTestMemory, type TestMemory } from '../../../testing/memory-fixture.js';
import type { Fact } from '../../core/types.js';
import type { Memory } from '../../memory.js';
import { MINUTE, T0, roundEvents, tickingClock, type Round } from './fixtures.test-support.js';
import { addEvidence } from './facts.js';
import { engineContext } from './context.js';
import { learnSettingsSchema } from './options.js';
import type { HeuristicCandidate } from '../extract.js';
import { relearnRule, sameCauseBeyond } from './retire.js';

/**
 * A product team's reports all name their product ("Orbit"). The first two share a cause (expired write
 * credentials) and nothing else but the product's name, so the rule learned from them is "When a report mentions
 * Orbit, check …". The next two name the product too and have other causes.
 */
const SAME: Round[] = [
  {
    report: 'Orbit stopped writing the nightly export files.',
    notes: ['No error page was shown.'],
    decision: 'Restarted the export worker.',
    outcome: 'failure',
    rootCause: 'The write credentials of the archive storage expired.',
    correction: 'Not the worker: the write credentials of the archive storage expired.',
  },
  {
    report: 'Uploads from Orbit are rejected since this morning.',
    notes: ['The rejection is immediate.'],
    decision: 'Renewed the write credentials of the archive storage.',
    outcome: 'success',
    rootCause: 'The archive storage write credentials expired overnight.',
  },
];
const OTHER: Round[] = [
  {
    report: 'Orbit dashboard shows stale sales numbers.',
    notes: ['The numbers are a week old.'],
    decision: 'Shortened the cache lifetime.',
    outcome: 'success',
    rootCause: 'The dashboard cache lifetime was set to a week by mistake.',
  },
  {
    report: 'Orbit search finds nothing for new customers.',
    notes: ['Older customers are found.'],
    decision: 'Enabled the index rebuild job again.',
    outcome: 'success',
    rootCause: 'The nightly search index rebuild job was disabled.',
  },
];

let tm: TestMemory | undefined;
afterEach(async () => {
  await tm?.cleanup();
  tm = undefined;
});

async function open(config: Record<string, unknown> = {}): Promise<Memory> {
  tm = await openTestMemory({ learn: { engine: { background: false, reflect: false }, ...config } }, tickingClock());
  return tm.memory;
}

async function play(memory: Memory, rounds: readonly Round[], from: number): Promise<void> {
  for (const [i, r] of rounds.entries()) {
    await memory.logEvents(roundEvents(r, T0 + (from + i) * 10 * MINUTE, { sessionId: 'orbit' }));
    await memory.flush();
  }
}

const orbitRule = (facts: readonly Fact[]) => facts.find((f) => f.kind === 'heuristic' && /mentions Orbit, check/.test(f.text));

describe('retiring a learned rule whose condition does not discriminate', () => {
  it('closes the lineage with a closing version that records why; reads and evidence leave it alone', async () => {
    const memory = await open();
    await play(memory, SAME, 0);
    const rule = orbitRule(await memory.storage.listFacts({ tenant: 'default', now: Date.now() }));
    expect(rule?.text).toMatch(/^When a report mentions Orbit, check .*credentials/);

    await play(memory, OTHER, SAME.length);
    const live = await memory.storage.listFacts({ tenant: 'default', now: Date.now() });
    expect(live.map((f) => f.key)).not.toContain(rule!.key);

    const history = await memory.factHistory(rule!.key);
    expect(history.map((f) => f.version)).toEqual([1, 2]);
    const [was, closing] = history as [Fact, Fact];
    expect(was.text).toBe(rule!.text);
    expect(was.validTo).toBe(closing.validFrom);
    expect(closing.validTo).toBe(closing.validFrom);
    expect(closing.text).toMatch(/^When a report mentions Orbit, check .* Retired: its condition was met by 2 report\(s\) of other causes and 0 of its own, e\.g\. Orbit/);
    const retired = closing.metadata.retired as Record<string, unknown>;
    expect(retired.reason).toBe('condition_not_discriminating');
    expect(retired.matchedOtherCause).toHaveLength(2);
    expect(closing.provenance.note).toBe('retired: condition not discriminating');

    // getContext no longer returns it; with explain, it is named as left out for its validity.
    const ctx = await memory.getContext('Orbit stopped writing the nightly export files', {
      explain: true,
      episodic_window: { mode: 'none' },
      semantic_retrieval: { top_k: 8, kinds: ['fact'] },
    });
    expect(ctx.items.map((i) => i.id)).not.toContain(was.id);
    expect(ctx.items.map((i) => i.id)).not.toContain(closing.id);
    expect(ctx.droppedItems?.filter((d) => d.reason === 'validity').map((d) => d.id)).toEqual([closing.id]);
    // As of before its retirement, the rule was served.
    const before = await memory.getContext('Orbit stopped writing the nightly export files', {
      as_of: closing.validFrom! - 1,
      episodic_window: { mode: 'none' },
      semantic_retrieval: { top_k: 8, kinds: ['fact'] },
    });
    expect(before.items.map((i) => i.id)).toContain(was.id);

    // A retired lineage takes no more evidence.
    const engine = engineContext({ storage: memory.storage, clock: { now: () => Date.now() }, settings: learnSettingsSchema.parse({}) });
    const ep = (await memory.storage.listEpisodes({ tenant: 'default', closed: true, limit: 1 }))[0]!;
    expect(await addEvidence(engine, 'default', was, [{ episodeId: ep.id, polarity: 'support', weight: 1 }])).toBeUndefined();

    // Produced again with the same condition it stays retired; with another one it is learned again.
    const h = was.metadata.heuristic as { conditionTerms: string[]; causeTerms: string[] };
    const candidate = (conditionTerms: string[], text: string): HeuristicCandidate => ({
      kind: 'pattern',
      text,
      key: was.key,
      conditionTerms,
      causeTerms: h.causeTerms,
      supportingEpisodeIds: was.provenance.episodeIds ?? [],
      contradictingEpisodeIds: [],
      correctedEpisodeIds: [],
      usefulness: { useful: true, score: 1, reasons: [], checks: {} as HeuristicCandidate['usefulness']['checks'], specificTerms: [] },
      method: 'heuristic',
    });
    expect(await relearnRule(engine, 'default', candidate(h.conditionTerms, was.text), closing)).toBeUndefined();
    const again = await relearnRule(engine, 'default', candidate(['upload', 'reject'], 'When a report mentions uploads rejected, check the archive storage write credentials.'), closing);
    expect(again).toMatchObject({ key: was.key, version: 3, supersedes: closing.id });
    expect(again!.validTo).toBeUndefined();
    expect((await memory.storage.listFacts({ tenant: 'default', now: Date.now() })).map((f) => f.id)).toContain(again!.id);
  });

  it('keeps the rule when retirement is off, or while only one report of another cause meets its condition', async () => {
    const off = await open({ confidence: { retire: false } });
    await play(off, [...SAME, ...OTHER], 0);
    expect(orbitRule(await off.storage.listFacts({ tenant: 'default', now: Date.now() }))).toBeDefined();
    await tm!.cleanup();

    const memory = await open();
    const again: Round = { ...SAME[1]!, report: 'Orbit cannot save the nightly export files.', rootCause: 'The archive storage write credentials had expired.' };
    await play(memory, [...SAME, OTHER[0]!, again], 0);
    const rule = orbitRule(await memory.storage.listFacts({ tenant: 'default', now: Date.now() }));
    expect(rule).toBeDefined();
    expect(rule!.version).toBe(1);
  });

  it('leaves the condition’s own words out when it tells causes apart', () => {
    const none = () => undefined;
    const a = 'Mia spends the weekend with her other parent';
    const b = 'The user works Saturday shifts, so nobody can take Mia to weekend events';
    expect(sameCauseBeyond(a, b, new Set(), none)).toBe(true);
    expect(sameCauseBeyond(a, b, new Set(['mia']), none)).toBe(false);
  });
});
