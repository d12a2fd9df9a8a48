import { describe, expect, it } from 'vitest';
import type { Episode } from '../core/types.js';
import { caseText, clauseEvidence, clauseOf, clausesOf, distinctive, liftByClauses, meet } from './clauses.js';
import type { Candidate } from './types.js';

const cand = (refId: string, final: number, type = 'FAILURE', kind = 'episode'): Candidate => ({ doc: { kind, refId, type }, scores: { final } }) as unknown as Candidate;
const ep = (id: string, situation: string, rootCause: string): Episode => ({ id, summary: `${situation} Tried: x.`, metadata: { situation }, rootCause }) as unknown as Episode;

describe('clauseOf', () => {
  it('reads a universal or a restricted scope, and a negation', () => {
    expect(clauseOf('the export breaks for everyone').scope).toBe('all');
    expect(clauseOf('only the night shift is affected').scope).toBe('some');
    expect(clauseOf('the printer works').scope).toBeUndefined();
    expect(clauseOf('the printer does not work').negated).toBe(true);
    expect(clauseOf("the printer doesn't work").negated).toBe(true);
    expect(clauseOf('the printer works').negated).toBe(false);
  });

  it('reads "one" as a quantifier before a content word, not as a pronoun or "one of"', () => {
    expect(clauseOf('one printer jams').scope).toBe('some');
    expect(clauseOf('it picked the blue one').scope).toBeUndefined();
    expect(clauseOf('one of the printers jams').scope).toBeUndefined();
  });

  it('does not read a quantifier inside a hyphenated compound', () => {
    expect(clauseOf('a read-only account').scope).toBeUndefined();
    expect(clauseOf('a one-off spike').scope).toBeUndefined();
  });

  it('keeps the content stems without the cue words', () => {
    expect([...clauseOf('not every printer').stems]).toEqual(['printer']);
  });
});

describe('clausesOf', () => {
  it('splits at punctuation and contrast conjunctions, dropping clauses without content', () => {
    expect(clausesOf('The export fails on my machine, but it works for the others; and then.').length).toBe(2);
  });
});

describe('distinctive', () => {
  it('keeps the clauses no clause of another cause shares most stems with', () => {
    const own = clausesOf('the nightly export fails; the laptop copy works');
    const others = clausesOf('the nightly export fails on the server');
    expect(distinctive(own, others).map((c) => [...c.stems])).toEqual([['laptop', 'copy', 'work']]);
  });
});

describe('meet', () => {
  it('is +1 for a shared scope, −1 for an opposite scope, −1 for a denial of the same thing', () => {
    expect(meet(clausesOf('it breaks everywhere'), clausesOf('fails on every machine'))).toBe(1);
    expect(meet(clausesOf('it breaks everywhere'), clausesOf('locally it passes'))).toBe(-1);
    expect(meet(clausesOf('on a holiday she is home'), clausesOf('it was not her holiday'))).toBe(-1);
    expect(meet(clausesOf('the printer jams'), clausesOf('the scanner is slow'))).toBe(0);
  });
});

describe('caseText', () => {
  it("reads the situation and the cause, not what was tried or corrected", () => {
    expect(caseText(ep('e', 'The export fails.', 'A full disk.'))).toBe('The export fails.. A full disk.');
  });
});

describe('clauseEvidence', () => {
  const episodes = new Map([
    ['narrow', ep('narrow', 'The nightly export fails on the server; locally it passes.', 'A stale cache.')],
    ['broad', ep('broad', 'Every laptop and desk terminal crashes at login.', 'A typo in the change.')],
  ]);
  const groups = new Map([['narrow', ['narrow']], ['broad', ['broad']]]);

  it("gives each case how the query's clauses meet its distinctive clauses", () => {
    const out = clauseEvidence('The nightly export fails everywhere.', [cand('narrow', 1), cand('broad', 0.9, 'SUCCESS')], episodes, groups);
    expect(out.get('broad')).toBe(1);
    expect(out.get('narrow')).toBe(-1);
  });

  it('reads nothing when the query states no scope and no negation', () => {
    expect(clauseEvidence('The nightly export fails.', [cand('narrow', 1), cand('broad', 0.9)], episodes, groups).size).toBe(0);
  });
});

describe('liftByClauses', () => {
  it('swaps two near cases, keeping the scores they held: a rule between them stays', () => {
    const out = liftByClauses([cand('a', 0.8), cand('rule', 0.79, 'heuristic', 'fact'), cand('b', 0.78)], new Map([['a', -1], ['b', 1]]), 0.03);
    expect(out.map((c) => [c.doc.refId, c.scores.final])).toEqual([['a', 0.78], ['rule', 0.79], ['b', 0.8]]);
    expect(out[2]!.scores.findings).toBeCloseTo(0.02);
  });

  it('leaves the order alone when the evidence does not outweigh the gap', () => {
    const c = [cand('a', 0.9), cand('b', 0.5)];
    expect(liftByClauses(c, new Map([['a', -1], ['b', 1]]), 0.03)).toEqual(c);
  });
});
