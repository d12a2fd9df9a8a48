import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventToDoc } from '../core/docs.js';
import { newEvent, openTestStore, readDeps, type TestStore } from './e2e.test-support.js';
import { makeEvent, T0 } from './fixtures.test-support.js';
import { parseContextConfig } from '../core/config.js';
import { buildContext } from './context.js';
import { search } from './search.js';
import { emptyBreakdown } from './score.js';
import { gathersAcrossSessions, pastSessionCap, spreadSessions } from './session-spread.js';
import type { Candidate } from './types.js';

describe('gathersAcrossSessions', () => {
  it('reads a plural asked-about thing after what/which, and both / in common, as gathering', () => {
    for (const q of [
      'What instruments does Melanie play?',
      'Which martial arts has John done?',
      'What activities has she done with her family?',
      'Which cities has Jon visited?',
      'What do Jon and Gina both have in common?',
      'Did they both take part in dance competitions?',
      'What do the two have in common?',
    ]) expect(gathersAcrossSessions(q), q).toBe(true);
  });

  it('leaves singular, auxiliary-led and possessive questions alone', () => {
    for (const q of [
      'What is her reason for getting into running?',
      'What does Gina say to Jon about the grand opening?',
      'What was the poetry reading about?',
      "What is Caroline's identity?",
      "What inspired Caroline's painting?",
      'What kind of pot did they make?',
      'What would she likely pursue?',
      'When did John get his dog Max?',
      'How many children does Melanie have?',
      'What status does the class have?',
    ]) expect(gathersAcrossSessions(q), q).toBe(false);
  });
});

describe('spreadSessions', () => {
  const turn = (id: string, sessionId: string | undefined, final: number): Candidate => {
    const e = makeEvent({ id, content: `${id} text`, ...(sessionId ? { sessionId } : {}) });
    return { doc: { ...eventToDoc(e), docId: undefined }, origin: 'semantic', event: e, scores: { ...emptyBreakdown(), relevance: final, final } };
  };

  it("moves a session's events past the cap after the others, keeping each group's order", () => {
    const ranked = [turn('a1', 'A', 0.9), turn('a2', 'A', 0.85), turn('b1', 'B', 0.8), turn('a3', 'A', 0.7), turn('n1', undefined, 0.65), turn('a4', 'A', 0.6), turn('b2', 'B', 0.5)];
    expect(spreadSessions(ranked, 2).map((c) => c.doc.refId)).toEqual(['a1', 'a2', 'b1', 'n1', 'b2', 'a3', 'a4']);
  });

  it('names the events it moves', () => {
    const ranked = [turn('a1', 'A', 0.9), turn('a2', 'A', 0.85), turn('b1', 'B', 0.8), turn('a3', 'A', 0.7), turn('n1', undefined, 0.65)];
    expect([...pastSessionCap(ranked, 2)].map((c) => c.doc.refId)).toEqual(['a3']);
  });

  it('returns the same order when no session is over the cap', () => {
    const ranked = [turn('a1', 'A', 0.9), turn('b1', 'B', 0.8), turn('a2', 'A', 0.7)];
    expect(spreadSessions(ranked, 2).map((c) => c.doc.refId)).toEqual(['a1', 'b1', 'a2']);
  });
});

describe('hybrid search spreads a gathering question across sessions', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await openTestStore('test-model', 4);
    const talk = (id: string, sessionId: string, name: string, content: string, at: number) => newEvent({ id, sessionId, name, type: 'message', actor: 'user', content, ts: T0 + at });
    await store.storage.appendEvents([
      talk('evt_s2', 'S2', 'Cy', 'Some trails, once.', 0),
      talk('evt_s2b', 'S2', 'Ben', 'That sounds lovely.', 1),
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => talk(`evt_s1_${i}`, 'S1', i % 2 ? 'Ben' : 'Ann', `Ann walked the long trails along the river on day ${i} of the trip`, 10 + i)),
    ]);
  });
  afterEach(async () => {
    await store.close();
  });

  it('brings the other session into the top k for a gathering question, and leaves other questions as they were', async () => {
    const deps = readDeps(store.storage, T0 + 100, async () => undefined);
    const sessionsOf = async (query: string) => {
      const hits = await search(deps, { tenant: 't1', query, k: 5, kinds: ['event'] });
      return hits.map((h) => h.doc.sessionId);
    };
    expect(await sessionsOf('Did Ann walk the trails?')).toEqual(['S1', 'S1', 'S1', 'S1', 'S1']);
    expect(await sessionsOf('Which trails did Ann walk?')).toContain('S2');
  });

  it('getContext does the same: the other session is picked and shown before a session past its first few', async () => {
    const deps = readDeps(store.storage, T0 + 100, async () => undefined);
    const config = parseContextConfig({ episodic_window: { mode: 'none' }, semantic_retrieval: { top_k: 5, kinds: ['event'] } });
    const sessionsOf = async (query: string) => (await buildContext(deps, { tenant: 't1', query, config })).items.map((i) => i.provenance.sessionId);
    expect(await sessionsOf('Did Ann walk the trails?')).toEqual(['S1', 'S1', 'S1', 'S1', 'S1']);
    const gathered = await sessionsOf('Which trails did Ann walk?');
    expect(gathered.slice(0, 5)).toContain('S2');
    // The session's first four stay ahead; only its further events give way.
    expect(gathered.slice(0, 4)).toEqual(['S1', 'S1', 'S1', 'S1']);
  });
});

describe('hybrid search takes no session neighbours for a gathering question', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await openTestStore('test-model', 4);
    const talk = (id: string, name: string, content: string, at: number) => newEvent({ id, sessionId: 'S1', name, type: 'message', actor: 'user', content, ts: T0 + at });
    await store.storage.appendEvents([
      talk('evt_q', 'Ann', 'Which paintings did you finish this spring?', 0),
      talk('evt_r', 'Ben', 'Two landscapes and a portrait of my aunt.', 1),
      talk('evt_o', 'Ann', 'Lovely, I would like to see them.', 2),
    ]);
  });
  afterEach(async () => {
    await store.close();
  });

  it('adds the turn after a hit as a neighbour for a singular question, not for a gathering one', async () => {
    const deps = readDeps(store.storage, T0 + 100, async () => undefined);
    const ids = async (query: string) => (await search(deps, { tenant: 't1', query, k: 5, kinds: ['event'] })).map((h) => h.doc.refId);
    // The reply shares no word with either question; it is a hit through the question before it. The turn after
    // it joins as a neighbour for the singular question only.
    expect(await ids('What did you finish this spring?')).toEqual(['evt_r', 'evt_q', 'evt_o']);
    expect(await ids('Which paintings did you finish this spring?')).toEqual(['evt_r', 'evt_q']);
  });
});
