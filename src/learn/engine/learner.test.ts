import { afterEach, describe, expect, it } from 'vitest';
import { openTestMemory, type TestMemory } from '../../../testing/memory-fixture.js';
import { createHeuristicReranker } from '../../adapters/rerankers/heuristic.js';
import { openSqliteStorage } from '../../adapters/storage/sqlite/index.js';
import { createMemory } from '../../memory.js';
import { sharedEmbedder } from '../../../testing/memory-fixture.js';
import { LEARNER_SESSION } from './checkpoint.js';
import { allRoundEvents, MINUTE, ROUNDS, roundEvents, T0, tickingClock } from './fixtures.test-support.js';

async function reopen(t: TestMemory, config: Record<string, unknown>): Promise<TestMemory> {
  const storage = await openSqliteStorage({ path: t.path });
  const memory = await createMemory({
    storage,
    embedder: sharedEmbedder(),
    reranker: createHeuristicReranker(),
    config: { retention: { sweepIntervalMinutes: 0 }, ...config },
    clock: tickingClock(Date.parse('2025-06-04T00:00:00Z')),
  });
  return { ...t, memory };
}

let tm: TestMemory | undefined;
afterEach(async () => {
  await tm?.cleanup();
  tm = undefined;
});

describe('Learner on SQLite (online segmentation)', () => {
  it('splits a multi-round stream in one state into one closed episode per round', async () => {
    tm = await openTestMemory({ learn: { engine: { background: true } } }, tickingClock());
    const { memory } = tm;
    // Logged as the rounds happen, one call per event, with the background learner running.
    for (const e of allRoundEvents()) await memory.logEvent(e);
    await memory.flush();
    const episodes = await memory.learn.episodes({ order: 'asc' });
    expect(episodes).toHaveLength(ROUNDS.length);
    expect(episodes.every((e) => e.closed)).toBe(true);
    expect(episodes.map((e) => e.outcome)).toEqual(['FAILURE', 'SUCCESS', 'SUCCESS', 'FAILURE']);
    // Each episode holds exactly its round's events (report … correction), no copies.
    const events = await memory.fetchEvents({ limit: 100 });
    let offset = 0;
    ROUNDS.forEach((r, i) => {
      const n = 2 + r.notes.length + 1 + (r.correction ? 1 : 0);
      expect(episodes[i]!.eventIds).toEqual(events.slice(offset, offset + n).map((e) => e.id));
      offset += n;
    });
    expect(episodes[0]!.corrections[0]).toContain('join key skew');
    expect(episodes[0]!.rootCause).toContain('skewed join key');
    expect(episodes[0]!.summary).toContain('Outcome: FAILURE');
    expect(episodes[0]!.metadata.situation).toBe(ROUNDS[0]!.report.replace(/\.$/, ''));
    // A correction that follows an outcome belongs to that outcome's episode.
    expect(episodes[3]!.corrections).toHaveLength(1);
    expect(episodes[1]!.corrections).toHaveLength(0);
  });

  it('persists the running episode as open and resumes it after a restart without duplicating', async () => {
    tm = await openTestMemory({ learn: { engine: { background: false } } }, tickingClock());
    const r = ROUNDS[0]!;
    const events = roundEvents(r, T0);
    await tm.memory.logEvents(events.slice(0, 3));
    await tm.memory.flush();
    const [open] = await tm.memory.learn.episodes({ closed: false });
    expect(open).toBeDefined();
    expect(open!.eventIds).toHaveLength(3);
    expect(open!.metadata.segmenter).toBeDefined();
    await tm.memory.close();

    // A new process on the same file: the segmenter resumes the open episode.
    tm = await reopen(tm, { learn: { engine: { background: false } } });
    const { memory } = tm;
    await memory.logEvents(events.slice(3));
    await memory.flush();
    const all = await memory.learn.episodes({});
    expect(all).toHaveLength(1);
    expect(all[0]!.id).toBe(open!.id);
    expect(all[0]!.closed).toBe(true);
    expect(all[0]!.eventIds).toHaveLength(events.length);
    expect(all[0]!.outcome).toBe('FAILURE');
    // Closed (retrievable) but still able to take a late follow-up; the next task's first event ends that.
    expect(all[0]!.metadata.segmenter).toBeDefined();
    await memory.logEvent(roundEvents(ROUNDS[1]!, T0 + 30 * MINUTE)[0]!);
    await memory.flush();
    const [first, second] = await memory.learn.episodes({ order: 'asc' });
    expect(first!.id).toBe(open!.id);
    expect(first!.metadata.segmenter).toBeUndefined();
    expect(second!.closed).toBe(false);
  });

  it('skips redacted events and splits on a state change and on a long pause, linking continuations', async () => {
    tm = await openTestMemory({ learn: { engine: { background: false } } }, tickingClock());
    const { memory } = tm;
    const s = { sessionId: 'planning' };
    const [secret] = await memory.logEvents([{ ...s, type: 'message', content: 'The staging database password is hunter2-temp.', ts: T0 }]);
    await memory.redact(secret!.id, 'credential');
    await memory.logEvents([
      { ...s, type: 'message', content: 'Plan the Q3 migration of the billing warehouse to the new cluster.', stateLabel: 'planning', ts: T0 + MINUTE },
      { ...s, type: 'note', content: 'Migration needs a two hour freeze window.', stateLabel: 'planning', ts: T0 + 2 * MINUTE },
      { ...s, type: 'message', content: 'Start executing the billing warehouse migration.', stateLabel: 'executing', ts: T0 + 3 * MINUTE },
      { ...s, type: 'note', content: 'Copied the first ten tables to the new cluster.', stateLabel: 'executing', ts: T0 + 4 * MINUTE },
      { ...s, type: 'note', content: 'Resumed copying the remaining tables the next morning.', stateLabel: 'executing', ts: T0 + 14 * 60 * MINUTE },
    ]);
    await memory.flush();
    const episodes = await memory.learn.episodes({ order: 'asc' });
    expect(episodes.map((e) => e.eventIds.length)).toEqual([2, 2, 1]);
    expect(episodes.flatMap((e) => e.eventIds)).not.toContain(secret!.id);
    expect(episodes.map((e) => e.metadata.openedBy)).toEqual(['stream_start', 'state_change', 'time_gap']);
    // The state change continues the same work (CONTINUATION); 14 hours later is beyond the continuation gap.
    const links = await memory.learn.links(episodes[1]!.id);
    expect(links.map((l) => [l.type, l.fromId, l.toId])).toEqual([['CONTINUATION', episodes[1]!.id, episodes[0]!.id]]);
    expect(await memory.learn.links(episodes[2]!.id)).toEqual([]);
  });

  it('reads events again after a lost checkpoint without duplicating episodes (ids come from first events)', async () => {
    tm = await openTestMemory({ learn: { engine: { background: false } } }, tickingClock());
    await tm.memory.logEvents(allRoundEvents());
    await tm.memory.flush();
    const before = await tm.memory.learn.episodes({ order: 'asc' });
    expect(before).toHaveLength(ROUNDS.length);
    // As if the process died before its checkpoint and running state were written: everything is read again.
    expect(await tm.memory.storage.deleteWorkingMemory('default', LEARNER_SESSION)).toBe(true);
    const last = before.at(-1)!;
    const { segmenter: _s, ...metadata } = last.metadata;
    await tm.memory.storage.putEpisode({ ...last, metadata });
    await tm.memory.close();
    tm = await reopen(tm, { learn: { engine: { background: false } } });
    await tm.memory.flush();
    const after = await tm.memory.learn.episodes({ order: 'asc' });
    expect(after.map((e) => [e.id, e.eventIds.length, e.outcome])).toEqual(before.map((e) => [e.id, e.eventIds.length, e.outcome]));
  });

  it('caps an episode at maxEpisodeEvents and continues the stream in a linked episode', async () => {
    tm = await openTestMemory({ learn: { engine: { background: false, maxEpisodeEvents: 3 } } }, tickingClock());
    await tm.memory.logEvents(Array.from({ length: 7 }, (_, i) => ({ sessionId: 'log', type: 'note', content: `Copied table ${i + 1} of the archive.`, ts: T0 + i * MINUTE })));
    await tm.memory.flush();
    const eps = await tm.memory.learn.episodes({ order: 'asc' });
    expect(eps.map((e) => e.eventIds.length)).toEqual([3, 3, 1]);
    expect(eps.map((e) => e.closed)).toEqual([true, true, false]);
    for (const i of [1, 2]) {
      const links = await tm.memory.learn.links(eps[i]!.id, { direction: 'out' });
      expect(links.map((l) => [l.type, l.toId])).toEqual([['CONTINUATION', eps[i - 1]!.id]]);
    }
  });

  it('describes an episode again when one of its events is redacted, so the words leave the summary', async () => {
    tm = await openTestMemory({ learn: { engine: { background: false, reflect: false } } }, tickingClock());
    await tm.memory.logEvents(allRoundEvents());
    await tm.memory.flush();
    const [first] = await tm.memory.learn.episodes({ order: 'asc' });
    expect(first!.summary).toContain('8g to 16g');
    const decision = (await tm.memory.fetchEvents({ limit: 100 })).find((e) => e.content.startsWith('Increased executor memory'))!;
    await tm.memory.redact(decision.id, 'test');
    const after = await tm.memory.learn.getEpisode(first!.id);
    expect(after.summary).not.toContain('8g to 16g');
    expect(after.eventIds).toEqual(first!.eventIds);
    expect(after.outcome).toBe('FAILURE');
    await tm.memory.flush();
    const hits = await tm.memory.search({ query: '8g to 16g executor memory', kinds: ['episode'], mode: 'lexical' });
    expect(hits.map((h) => h.doc.text).join(' ')).not.toContain('16g');
  });
});
