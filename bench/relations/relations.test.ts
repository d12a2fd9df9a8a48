import { describe, expect, it } from 'vitest';
import { CATEGORIES, loadRelationSet, relationProblems, type Question } from './fixtures.js';
import { hopRank, runRelations, scoreQuestion } from './run.js';

const set = loadRelationSet();

describe('relation QA fixtures', () => {
  it('has at least 150 questions over at least 60 entities in at least 10 conversations, every category well represented', () => {
    expect(set.length).toBeGreaterThanOrEqual(10);
    const questions = set.flatMap((c) => c.questions);
    expect(questions.length).toBeGreaterThanOrEqual(150);
    expect(new Set(set.flatMap((c) => c.entities.map((e) => `${c.id}/${e.name}`))).size).toBeGreaterThanOrEqual(60);
    for (const cat of CATEGORIES) expect(questions.filter((q) => q.category === cat).length, cat).toBeGreaterThanOrEqual(25);
    expect(new Set(set.map((c) => c.id)).size).toBe(set.length);
  });

  it('phrases questions naturally: no one opening dominates', () => {
    const openings = new Map<string, number>();
    for (const q of set.flatMap((c) => c.questions)) {
      const w = q.question.split(/\s+/).slice(0, 2).join(' ').toLowerCase();
      openings.set(w, (openings.get(w) ?? 0) + 1);
    }
    expect(Math.max(...openings.values())).toBeLessThan(0.1 * [...openings.values()].reduce((a, b) => a + b, 0));
  });

  it('ties every hop to turns that exist and to an accept alternative one of them matches', () => {
    expect(set.flatMap(relationProblems)).toEqual([]);
  });

  it('mentions every listed entity in the conversation', () => {
    for (const c of set) {
      const text = c.turns.map((t) => `${t.speaker} ${t.text}`).join(' ').toLowerCase();
      for (const e of c.entities) expect(text.includes(e.name.toLowerCase().replace(/^(project|the) /, '').split(' ')[0]!), `${c.id} ${e.name}`).toBe(true);
    }
  });
});

describe('relation QA scoring', () => {
  const q: Question = {
    id: 'q',
    category: 'multi-hop',
    question: "Where does Alice's manager live?",
    answer: 'Lisbon',
    hops: [
      { evidence: ['t3'], accept: [['Carol', 'manag', 'Alice'], ['Alice', 'reports to', 'Carol']] },
      { evidence: ['t8'], accept: [['Carol', 'lives in', 'Lisbon']] },
    ],
  };
  const eventOf = new Map([['t3', 'ev3'], ['t8', 'ev8']]);

  it('finds a hop by its evidence event or by an accept alternative in order, never in the reverse direction', () => {
    expect(hopRank(q.hops[0]!, [{ id: 'x', text: 'Alice manages Carol.' }, { id: 'ev3', text: 'I manage her.' }], eventOf)).toBe(2);
    expect(hopRank(q.hops[0]!, [{ id: 'y', text: 'Entities: Alice —reports to→ Carol' }], eventOf)).toBe(1);
    expect(hopRank(q.hops[0]!, [{ id: 'x', text: 'Alice manages Carol.' }], eventOf)).toBeNull();
  });

  it('needs every hop in the top 3 for the figure and reports final-hop top-3 and all-hops top-5 beside it', () => {
    const items = [
      { id: 'ev8', text: 'Carol: I live in Lisbon.' },
      { id: 'a', text: 'noise' },
      { id: 'b', text: 'noise' },
      { id: 'c', text: 'CAROL manages Alice.' },
    ];
    expect(scoreQuestion(q, items, eventOf)).toEqual({ hopRanks: [4, 1], top3: false, finalHopTop3: true, allHopsTop5: true });
    expect(scoreQuestion(q, [items[3]!, items[0]!], eventOf)).toEqual({ hopRanks: [1, 2], top3: true, finalHopTop3: true, allHopsTop5: true });
    expect(scoreQuestion(q, [], eventOf)).toEqual({ hopRanks: [null, null], top3: false, finalHopTop3: false, allHopsTop5: false });
  });
});

describe('relation QA runner', () => {
  it('asks every question of a conversation against a real memory, as-of ones included, without failing a call', async () => {
    const one = set.filter((c) => c.id === 'rel-02-family');
    const r = await runRelations(one, { embedder: { provider: 'use-lite', workers: 0, batchSize: 32 } });
    expect(r.questions).toBe(one[0]!.questions.length);
    expect(r.results.filter((q) => q.error)).toEqual([]);
    // Either the library takes as_of (and it was passed) or it refused it and the run says so.
    expect(['supported', 'unsupported']).toContain(r.asOf);
    expect(r.results.filter((q) => q.category === 'as-of').every((q) => q.asOfPassed === (r.asOf === 'supported'))).toBe(true);
    // The single-hop questions of this conversation name their answer's words: most must be found.
    expect(r.byCategory['single-hop']!.top3.share).toBeGreaterThanOrEqual(0.5);
  }, 120_000);
});
