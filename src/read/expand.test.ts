import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventToDoc } from '../core/docs.js';
import type { MemoryEvent } from '../core/types.js';
import { adjacent, asksWhatYouSaid, expandCandidates, favourAsker, favourNamedAuthors, mentionedNames, namedAuthors, type ExpandRequest } from './expand.js';
import { informationPrior } from './turns.js';
import { newEvent, openTestStore, readDeps, type TestStore } from './e2e.test-support.js';
import { search } from './search.js';
import { makeEvent, T0 } from './fixtures.test-support.js';
import { emptyBreakdown } from './score.js';
import { DAY_TIME_BOOST } from './time-window.js';
import type { Candidate } from './types.js';

describe('mentionedNames', () => {
  it('matches whole names, case-folded, and multi-word names as a sequence', () => {
    const names = ['Jon', 'Gina', 'Mary Ann', 'Ann'];
    expect([...mentionedNames("What did jon's friend Jonathan say?", names)]).toEqual(['Jon']);
    expect([...mentionedNames('When did Mary Ann call?', names)].sort()).toEqual(['Ann', 'Mary Ann']);
    expect(mentionedNames('What did Mary call about, Ann?', ['Mary Ann']).size).toBe(0);
  });
});

describe('the author field', () => {
  const said = (name: string | undefined, relevance: number, id: string): Candidate => ({
    doc: { ...eventToDoc(makeEvent({ id, content: `${id} text`, name })), docId: undefined },
    origin: 'semantic',
    event: makeEvent({ id, content: `${id} text`, name }),
    scores: { ...emptyBreakdown(), relevance, final: relevance },
  });
  const candidates = [said('Melanie', 0.6, 'evt_m'), said('Caroline', 0.5, 'evt_c'), said(undefined, 0.55, 'evt_n'), said('Caroline', 0.95, 'evt_c2')];

  it('finds the authors the query names among those in view, when it names some but not all', () => {
    expect([...namedAuthors('What did Caroline paint?', candidates)]).toEqual(['Caroline']);
    expect(namedAuthors('Do Caroline and Melanie both paint?', candidates).size).toBe(0);
    expect(namedAuthors('Who paints?', candidates).size).toBe(0);
    // A name no candidate has is not "in view".
    expect(namedAuthors('What did Gina paint?', candidates).size).toBe(0);
  });

  it("raises the named author's events by the bonus (capped at 1) and re-sorts; others and authorless events keep theirs", () => {
    const out = favourNamedAuthors('What did Caroline paint?', [...candidates], 0.15, (_c, r) => r);
    expect(out.map((c) => [c.event!.id, c.scores.relevance])).toEqual([
      ['evt_c2', 1],
      ['evt_c', 0.65],
      ['evt_m', 0.6],
      ['evt_n', 0.55],
    ]);
    expect(favourNamedAuthors('Who paints?', [...candidates], 0.15, (_c, r) => r)).toEqual(candidates);
  });
});

describe("the asker's author field", () => {
  const said = (name: string | undefined, relevance: number, id: string, content: string): Candidate => ({
    doc: { ...eventToDoc(makeEvent({ id, content, name })), docId: undefined },
    origin: 'semantic',
    event: makeEvent({ id, content, name }),
    scores: { ...emptyBreakdown(), relevance, final: relevance },
  });
  const candidates = [
    said('assistant', 0.3, 'evt_a', 'Brompton bikes fold small. Service them yearly.'),
    said('user', 0.32, 'evt_q', 'Is it worth getting a bike fit?'),
    said('user', 0.12, 'evt_s', 'I started commuting on a Brompton. My back aches, why?'),
  ];

  it("raises the user's stating events when the query speaks in the first person singular; not a user turn that only asks", () => {
    const out = favourAsker('How many bikes do I own?', [...candidates], 0.15, (_c, r) => r);
    expect(out.map((c) => [c.event!.id, Number(c.scores.relevance!.toFixed(2))])).toEqual([
      ['evt_q', 0.32],
      ['evt_a', 0.3],
      ['evt_s', 0.27],
    ]);
  });

  it('leaves the list as it is without a first-person query, a user role in view, or a second author', () => {
    expect(favourAsker('How many bikes are there?', [...candidates], 0.15, (_c, r) => r)).toEqual(candidates);
    expect(favourAsker('Which bike did I buy?', candidates.map((c) => ({ ...c, event: { ...c.event!, name: 'Melanie' } })), 0.15, (_c, r) => r).map((c) => c.scores.relevance)).toEqual([0.3, 0.32, 0.12]);
    expect(favourAsker('Which bike did I buy?', candidates.slice(1), 0.15, (_c, r) => r).map((c) => c.scores.relevance)).toEqual([0.32, 0.12]);
  });

  it("gives the field to the assistant's turns when the question asks what \"you\" said, recommended or gave", () => {
    const out = favourAsker('Which bike did you recommend for my commute?', [...candidates], 0.15, (_c, r) => r);
    expect(out.map((c) => [c.event!.id, Number(c.scores.relevance!.toFixed(2))])).toEqual([
      ['evt_a', 0.45],
      ['evt_q', 0.32],
      ['evt_s', 0.12],
    ]);
    // "you" as the one the asker told: the asker's field, as before.
    expect(favourAsker('What did I tell you about my bikes?', [...candidates], 0.15, (_c, r) => r).map((c) => c.event!.id)).toEqual(['evt_q', 'evt_a', 'evt_s']);
  });
});

describe('asksWhatYouSaid', () => {
  it('reads "you" as the one who said or gave something in the past, or "your"', () => {
    for (const q of ['What did you recommend for my knee?', 'What was the recipe you gave me?', "Which hotel had you suggested for my trip?", 'What was your advice on my loan?', 'What did you end up recommending for my back?']) {
      expect(asksWhatYouSaid(q)).toBe(true);
    }
  });

  it('not "you" as the asker\'s listener, a request for now, or a verb of holding in memory', () => {
    for (const q of ['What did I tell you about my knee?', 'What have I told you happened to my car?', 'What did I mention to you about my diet?', 'Can you remind me which race I entered?', 'Do you remember what I said about my job?', 'What did you note about my allergies?', 'How many bikes do I own?']) {
      expect(asksWhatYouSaid(q)).toBe(false);
    }
  });
});

describe('adjacent', () => {
  it('picks the nearest event on each side by timeline position, not list order', () => {
    const evs = [5, 9, 2, 7, 11].map((seq) => makeEvent({ content: `e${seq}`, seq }));
    const { before, after } = adjacent(evs, 8);
    expect(before?.seq).toBe(7);
    expect(after?.seq).toBe(9);
    expect(adjacent(evs, 1).before).toBeUndefined();
    expect(adjacent(evs, 11).after).toBeUndefined();
  });
});

describe('expandCandidates (SQLite)', () => {
  let store: TestStore;
  let events: MemoryEvent[];
  const now = T0 + 1_000_000;
  // The conversation steps (turns.ts) are off unless a test turns them on: each test measures one step.
  const req = (over: Partial<ExpandRequest> = {}): ExpandRequest => ({
    tenant: 't1',
    query: 'What did Bob paint?',
    now,
    rescore: (_c, r) => r,
    scoreNew: (_c, r) => ({ ...emptyBreakdown(), relevance: r, final: r }),
    ...over,
    settings: { informationWeight: 0, answerShare: 0, contextShare: 0, ...over.settings },
  });
  const cand = (e: MemoryEvent, relevance: number, docId: number): Candidate => ({
    doc: { ...eventToDoc(e), docId },
    origin: 'semantic',
    scores: { ...emptyBreakdown(), relevance, final: relevance },
  });

  beforeEach(async () => {
    store = await openTestStore('test-model', 4);
    // Session S1 interleaved with S2: S1 = q, (S2 x), a, later; the reply to q is a, not x.
    const input = [
      newEvent({ id: 'evt_q', sessionId: 'S1', name: 'Alice', content: 'You painted something? What is it?', ts: T0 }),
      newEvent({ id: 'evt_x', sessionId: 'S2', name: 'Carol', content: 'Unrelated chatter in another session', ts: T0 + 1 }),
      newEvent({ id: 'evt_a', sessionId: 'S1', name: 'Bob', content: 'A sunset over the lake, last summer.', ts: T0 + 2 }),
      newEvent({ id: 'evt_l', sessionId: 'S1', name: 'Alice', content: 'Lovely colours.', ts: T0 + 3 }),
    ];
    const res = await store.storage.appendEvents(input);
    events = await store.storage.getEvents('t1', res.map((r) => r.id));
  });
  afterEach(async () => {
    await store.close();
  });

  it("adds a hit's session neighbours with a share of its relevance, skipping other sessions", async () => {
    const [, , a, l] = events;
    const out = await expandCandidates(store.storage, req({ query: 'What is it?', settings: { shareAfter: 0.5, shareBefore: 0.25 } }), [cand(a!, 0.8, 1)]);
    const rel = Object.fromEntries(out.map((c) => [c.doc.refId, c.scores.relevance]));
    expect(rel).toEqual({ evt_a: 0.8, evt_l: 0.4, evt_q: 0.2 });
    expect(out.map((c) => c.doc.refId)).toEqual(['evt_a', 'evt_l', 'evt_q']);
    // A neighbour is one event with its own text; the timeline record rides along.
    expect(out[1]!.doc.text).toBe('Alice: Lovely colours.');
    expect(out[1]!.event?.id).toBe(l!.id);
  });

  it('adds no neighbours and no author bonus when the candidates do not read as a conversation', async () => {
    const [, , a] = events;
    const out = await expandCandidates(store.storage, req({ query: 'What did Bob paint?', conversational: false, settings: { shareAfter: 0.5, shareBefore: 0.25 } }), [cand(a!, 0.8, 1)]);
    expect(out.map((c) => [c.doc.refId, c.scores.relevance])).toEqual([['evt_a', 0.8]]);
  });

  it('reaches two turns away with the share compounding, and no further than `reach`', async () => {
    const [q] = events;
    const two = await expandCandidates(store.storage, req({ query: 'What is it?', settings: { shareAfter: 0.5, reach: 2 } }), [cand(q!, 0.8, 1)]);
    expect(Object.fromEntries(two.map((c) => [c.doc.refId, c.scores.relevance]))).toEqual({ evt_q: 0.8, evt_a: 0.4, evt_l: 0.2 });
    const one = await expandCandidates(store.storage, req({ query: 'What is it?', settings: { shareAfter: 0.5, reach: 1 } }), [cand(q!, 0.8, 1)]);
    expect(one.map((c) => c.doc.refId)).toEqual(['evt_q', 'evt_a']);
  });

  it('skips a redacted neighbour (its tombstone has no doc) for the next live event', async () => {
    const [q] = events;
    await store.storage.redactEvent('t1', 'evt_a', 'test', now);
    const out = await expandCandidates(store.storage, req({ query: 'What is it?', settings: { shareAfter: 0.5 } }), [cand(q!, 0.8, 1)]);
    expect(out.map((c) => [c.doc.refId, c.scores.relevance])).toEqual([
      ['evt_q', 0.8],
      ['evt_l', 0.4],
    ]);
  });

  it('lifts a candidate that is also a neighbour only when the inherited relevance is higher', async () => {
    const [q, , a] = events;
    const out = await expandCandidates(store.storage, req({ query: 'What is it?', settings: { shareAfter: 0.5, authorBonus: 0 } }), [cand(q!, 0.9, 1), cand(a!, 0.2, 2)]);
    expect(out.find((c) => c.doc.refId === 'evt_a')!.scores.relevance).toBeCloseTo(0.45);
    const kept = await expandCandidates(store.storage, req({ query: 'What is it?', settings: { shareAfter: 0.5, authorBonus: 0 } }), [cand(q!, 0.9, 1), cand(a!, 0.6, 2)]);
    expect(kept.find((c) => c.doc.refId === 'evt_a')!.scores.relevance).toBe(0.6);
  });

  it('ranks the named author above an equally relevant reply addressed to them, after the neighbours are in', async () => {
    const [q, , a] = events;
    const out = await expandCandidates(store.storage, req({ settings: { seeds: 0 } }), [cand(q!, 0.5, 1), cand(a!, 0.5, 2)]);
    expect(out.map((c) => [c.doc.refId, c.scores.relevance])).toEqual([
      ['evt_a', 0.65],
      ['evt_q', 0.5],
    ]);
    // Alice's question is the seed; Bob's reply joins as its neighbour with 0.5 of the seed's relevance before the
    // bonus (0.4), then gains the bonus as Bob's: 0.55 — and the turn after it, Alice's again, gains nothing.
    const withNeighbours = await expandCandidates(store.storage, req({ settings: { seeds: 1, shareAfter: 0.5, reach: 2 } }), [cand(q!, 0.8, 1)]);
    expect(Object.fromEntries(withNeighbours.map((c) => [c.doc.refId, c.scores.relevance]))).toEqual({ evt_q: 0.8, evt_a: 0.55, evt_l: 0.2 });
    // The events loaded for the authors ride along, so getContext does not load them again.
    expect(out.map((c) => c.event?.name)).toEqual(['Bob', 'Alice']);
  });

  it('runs in hybrid search only: lexical mode returns what BM25 found, hybrid adds a neighbour', async () => {
    const deps = readDeps(store.storage, now, async () => undefined);
    const lexical = await search(deps, { tenant: 't1', query: 'what did you paint', k: 5, mode: 'lexical' });
    // The reply is a BM25 hit through its lexical context (the question before it), the turn after it is not.
    expect(lexical.map((h) => h.doc.refId)).toEqual(['evt_q', 'evt_a']);
    const hybrid = await search(deps, { tenant: 't1', query: 'what did you paint', k: 5 });
    expect(hybrid.map((h) => h.doc.refId)).toEqual(['evt_q', 'evt_a', 'evt_l']);
    expect(hybrid[2]!.doc.docId).toBeUndefined();
  });

  it('multiplies the relevance of memories from the day the query names (1 + DAY_TIME_BOOST, capped at 1), whatever their kind', async () => {
    const [q, , a] = events;
    const day = new Date(T0).toISOString().slice(0, 10); // the fixture's day, as YYYY-MM-DD
    const onDay = `What did Bob paint on ${day}?`;
    const elsewhere = { ...cand(q!, 0.4, 1), doc: { ...cand(q!, 0.4, 1).doc, ts: T0 - 30 * 86_400_000 } };
    const fact: Candidate = { doc: { ...eventToDoc(a!), kind: 'fact', refId: 'fct_1', docId: 9 }, origin: 'semantic', scores: { ...emptyBreakdown(), relevance: 0.1, final: 0.1 } };
    const out = await expandCandidates(store.storage, req({ query: onDay, settings: { seeds: 0, authorBonus: 0 } }), [elsewhere, cand(a!, 0.125, 2), fact]);
    expect(out.map((c) => [c.doc.refId, c.scores.relevance])).toEqual([
      ['evt_a', 0.125 * (1 + DAY_TIME_BOOST)],
      ['fct_1', 0.1 * (1 + DAY_TIME_BOOST)],
      ['evt_q', 0.4],
    ]);
    const capped = await expandCandidates(store.storage, req({ query: onDay, settings: { seeds: 0, authorBonus: 0 } }), [cand(a!, 0.8, 2)]);
    expect(capped[0]!.scores.relevance).toBe(1);
    // No date in the query: nothing moves.
    const plain = await expandCandidates(store.storage, req({ settings: { seeds: 0, authorBonus: 0 } }), [elsewhere, cand(a!, 0.35, 2)]);
    expect(plain.map((c) => c.scores.relevance)).toEqual([0.4, 0.35]);
  });

  it('applies the conversation steps: the prior lowers a question, its reply gains, only when adjacent in the timeline', async () => {
    const [q, , a] = events;
    const added = await store.storage.appendEvents([
      newEvent({ id: 'evt_dq', sessionId: 'S3', name: 'Dana', content: 'What do you make?', ts: T0 + 4 }),
      newEvent({ id: 'evt_ea', sessionId: 'S3', name: 'Eve', content: 'Pottery, mostly, and some weaving on weekends.', ts: T0 + 5 }),
    ]);
    const [dq, ea] = await store.storage.getEvents('t1', added.map((r) => r.id));
    const on = { seeds: 0, authorBonus: 0, informationWeight: 0.04, informationReference: 15, answerShare: 0.5, contextShare: 0 };
    const out = await expandCandidates(store.storage, req({ query: 'What does Eve make?', settings: on }), [cand(dq!, 0.6, 1), cand(ea!, 0.1, 2)]);
    const rel = Object.fromEntries(out.map((c) => [c.doc.refId, c.scores.relevance!]));
    expect(rel.evt_dq).toBeCloseTo(0.6 + informationPrior('Dana: What do you make?', on));
    expect(rel.evt_ea).toBeCloseTo(0.1 + informationPrior('Eve: Pottery, mostly, and some weaving on weekends.', on) + 0.5 * 0.6);
    // S1's question and its reply have S2's event between them on the timeline: no answer step.
    const interleaved = await expandCandidates(store.storage, req({ query: 'What is it?', settings: { ...on, informationWeight: 0 } }), [cand(q!, 0.6, 1), cand(a!, 0.1, 2)]);
    expect(interleaved.map((c) => c.scores.relevance)).toEqual([0.6, 0.1]);
  });

  it('adds no neighbours when the request excludes events, and passes other kinds through', async () => {
    const [, , a] = events;
    const fact: Candidate = { doc: { ...eventToDoc(a!), kind: 'fact', refId: 'fct_1', docId: 9 }, origin: 'semantic', scores: { ...emptyBreakdown(), relevance: 0.3, final: 0.3 } };
    const out = await expandCandidates(store.storage, req({ kinds: ['fact'] }), [fact]);
    expect(out).toEqual([fact]);
  });
});
