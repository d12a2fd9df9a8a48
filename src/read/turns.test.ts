import { describe, expect, it } from 'vitest';
import { eventToDoc } from '../core/docs.js';
import type { MemoryEvent } from '../core/types.js';
import { makeEvent } from './fixtures.test-support.js';
import { emptyBreakdown } from './score.js';
import { answerQuestions, informationPrior, sameAuthorContext, timelinePositions } from './turns.js';
import type { Candidate } from './types.js';

const cand = (e: MemoryEvent, relevance: number, docId: number): Candidate => ({
  doc: { ...eventToDoc(e), docId },
  origin: 'semantic',
  event: e,
  scores: { ...emptyBreakdown(), relevance, final: relevance },
});
const rescore = (_c: Candidate, r: number) => r;
const known = (cs: readonly Candidate[]) => new Map(cs.map((c) => [c.event!.id, c.event!]));
const relevances = (cs: readonly Candidate[]) => Object.fromEntries(cs.map((c) => [c.doc.refId, Number(c.scores.relevance!.toFixed(6))]));

describe('informationPrior', () => {
  const s = { informationWeight: 0.04, informationReference: 15 };
  it('lowers memories that state little, most for one that only asks, and leaves long ones alone', () => {
    const asks = informationPrior('What did you paint?', s);
    const reacts = informationPrior('Wow, nice!', s);
    const states = informationPrior('I painted the lake at sunset last summer, from the old pier, with my sister and her two kids.', s);
    expect(asks).toBeCloseTo(-0.04 * Math.log(16));
    expect(reacts).toBeCloseTo(0.04 * (Math.log(3) - Math.log(16)));
    expect(states).toBe(0);
    expect(asks).toBeLessThan(reacts);
  });
  it('is off at weight 0', () => {
    expect(informationPrior('What?', { informationWeight: 0, informationReference: 15 })).toBe(0);
  });
});

describe('answerQuestions', () => {
  // One session, seq 1..3: a question, its reply, and a later turn; another session's turn at seq 4.
  const q = makeEvent({ id: 'q', seq: 1, sessionId: 'S1', name: 'Ann', content: 'What kind of art do you make?' });
  const a = makeEvent({ id: 'a', seq: 2, sessionId: 'S1', name: 'Bo', content: 'Pottery, mostly.' });
  const later = makeEvent({ id: 'later', seq: 3, sessionId: 'S1', name: 'Ann', content: 'Nice. I knit.' });
  const other = makeEvent({ id: 'other', seq: 4, sessionId: 'S2', name: 'Cy', content: 'Hello there.' });

  it('raises the next event of the session by share · question share · the asker relevance', () => {
    const out = [cand(q, 0.6, 1), cand(a, 0.1, 2), cand(later, 0.1, 3)];
    answerQuestions(out, timelinePositions(out, known(out)), new Map([['q', 0.6], ['a', 0.1], ['later', 0.1]]), 0.5, rescore);
    expect(relevances(out)).toEqual({ q: 0.6, a: 0.4, later: 0.1 });
    expect(out[1]!.scores.final).toBeCloseTo(0.4);
  });

  it('passes nothing from a statement, nor across sessions, nor to an event that is not a candidate', () => {
    const stated = [cand(a, 0.9, 2), cand(later, 0.1, 3)];
    answerQuestions(stated, timelinePositions(stated, known(stated)), new Map([['a', 0.9]]), 0.5, rescore);
    expect(relevances(stated)).toEqual({ a: 0.9, later: 0.1 });
    const elsewhere = makeEvent({ id: 'elsewhere', seq: 2, sessionId: 'S2', name: 'Cy', content: 'Knitting.' });
    const across = [cand(q, 0.9, 1), cand(elsewhere, 0.1, 2)];
    answerQuestions(across, timelinePositions(across, known(across)), new Map([['q', 0.9]]), 0.5, rescore);
    expect(relevances(across)).toEqual({ q: 0.9, elsewhere: 0.1 });
    const lonely = [cand(q, 0.9, 1), cand(other, 0.1, 4)];
    answerQuestions(lonely, timelinePositions(lonely, known(lonely)), new Map([['q', 0.9]]), 0.5, rescore);
    expect(relevances(lonely)).toEqual({ q: 0.9, other: 0.1 });
  });

  it('caps relevance at 1', () => {
    const out = [cand(q, 1, 1), cand(a, 0.8, 2)];
    answerQuestions(out, timelinePositions(out, known(out)), new Map([['q', 1]]), 0.5, rescore);
    expect(out[1]!.scores.relevance).toBe(1);
  });
});

describe('sameAuthorContext', () => {
  // A two-person chat: Ann at seq 1, 3, 5; Bo at 2, 4; Ann again at 8, three positions after 5.
  const turn = (seq: number, name: string) => makeEvent({ id: `e${seq}`, seq, sessionId: 'S', name, content: `turn ${seq}` });
  const evs = [turn(1, 'Ann'), turn(2, 'Bo'), turn(3, 'Ann'), turn(4, 'Bo'), turn(5, 'Ann'), turn(8, 'Ann')];

  it("adds a share of the same author's nearby relevance, from relevance as it was before the step", () => {
    const out = evs.map((e, i) => cand(e, [0.5, 0.3, 0.1, 0.6, 0.2, 0.4][i]!, i + 1));
    sameAuthorContext(out, timelinePositions(out, known(out)), 0.2, 2, rescore);
    expect(relevances(out)).toEqual({
      e1: 0.52, // + 0.2 · e3
      e2: 0.42, // + 0.2 · e4 (Bo); Ann's turns do not count
      e3: 0.24, // + 0.2 · (e1 + e5)
      e4: 0.66, // + 0.2 · e2
      e5: 0.22, // + 0.2 · e3; e8 is three positions away
      e8: 0.4,
    });
  });

  it('counts other sessions and other authors for nothing', () => {
    const mixed = [cand(turn(1, 'Ann'), 0.5, 1), cand({ ...turn(3, 'Ann'), sessionId: 'T' }, 0.5, 2), cand(turn(2, 'Bo'), 0.5, 3)];
    sameAuthorContext(mixed, timelinePositions(mixed, known(mixed)), 0.2, 2, rescore);
    expect(relevances(mixed)).toEqual({ e1: 0.5, e3: 0.5, e2: 0.5 });
  });
});
