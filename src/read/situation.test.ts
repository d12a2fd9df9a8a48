import { describe, expect, it } from 'vitest';
import { candidate, makeDoc } from './fixtures.test-support.js';
import { applySituation, causeChangeOf, CHANGE_MISMATCH, dropContradicted, PATTERN_MISMATCH, queryCues, type SituationCues } from './situation.js';
import type { Candidate } from './types.js';

function episode(id: string, relevance: number): Candidate {
  return candidate(makeDoc({ kind: 'episode', refId: id, text: `episode ${id}` }), { scores: { relevance }, final: relevance });
}

const rescore = (_c: Candidate, relevance: number) => relevance;
const relevances = (out: Candidate[]) => new Map(out.map((x) => [x.doc.refId, x.scores.relevance!]));

describe('applySituation: what changed', () => {
  const eps = [episode('a', 0.6), episode('b', 0.7), episode('c', 0.5)];
  // a started from a report of trouble after a change; b and c did not; d's situation is unknown.
  const cues = new Map<string, SituationCues>([['a', { change: true }], ['b', { change: false }], ['c', { change: false }]]);

  it('when the query says its trouble followed a change, situations without one fall behind', () => {
    const out = applySituation([...eps, episode('d', 0.4)], cues, { change: true }, rescore);
    const rel = relevances(out);
    expect(rel.get('a')).toBe(0.6);
    expect(rel.get('b')).toBeCloseTo(0.7 * CHANGE_MISMATCH, 9);
    expect(rel.get('a')!).toBeGreaterThan(rel.get('b')!);
    expect(rel.get('d')).toBe(0.4);
    expect(out.map((x) => x.scores.final)).toEqual(out.map((x) => x.scores.relevance));
  });

  it('a query that does not mention a change leaves every episode, and other kinds always, as they were', () => {
    expect(applySituation(eps, cues, { change: false }, rescore).map((x) => x.scores.relevance)).toEqual([0.6, 0.7, 0.5]);
    const fact = candidate(makeDoc({ kind: 'fact', refId: 'b', text: 'a fact' }), { scores: { relevance: 0.7 }, final: 0.7 });
    expect(applySituation([fact], cues, { change: true }, rescore)[0]).toBe(fact);
  });
});

describe('an episode that may have followed a change', () => {
  // a states a change; m followed an event the change cues do not read ("since Monday's config refresh"); n stated none.
  const cues = new Map<string, SituationCues>([
    ['a', { change: true }],
    ['m', { change: false, mayHaveChanged: true }],
    ['n', { change: false }],
  ]);
  const eps = [episode('a', 0.9), episode('m', 0.6), episode('n', 0.7)];

  it('is not scaled for a query that states a change', () => {
    const rel = relevances(applySituation(eps, cues, { change: true }, rescore));
    expect(rel.get('m')).toBe(0.6);
    expect(rel.get('n')).toBeCloseTo(0.7 * CHANGE_MISMATCH, 9);
  });

  it('is not left out behind a best episode that states the change, while one that stated none is', () => {
    const kept = dropContradicted(applySituation(eps, cues, { change: true }, rescore), cues, { change: true }).map((c) => c.doc.refId);
    expect(kept).toContain('m');
    expect(kept).not.toContain('n');
  });

  it('does not count as matching the query: as the best episode it leaves every other in place', () => {
    const best = [episode('m', 0.95), episode('n', 0.7)];
    expect(dropContradicted(applySituation(best, cues, { change: true }, rescore), cues, { change: true }).map((c) => c.doc.refId).sort()).toEqual(['m', 'n']);
  });
});

describe('applySituation: intermittent or every time', () => {
  const eps = [episode('race', 0.6), episode('bug', 0.7), episode('quiet', 0.5)];
  const cues = new Map<string, SituationCues>([
    ['race', { change: false, pattern: 'intermittent' }],
    ['bug', { change: false, pattern: 'consistent' }],
    ['quiet', { change: false }],
  ]);

  it('an episode whose trouble happened every time falls behind for a query whose trouble comes and goes', () => {
    const rel = relevances(applySituation(eps, cues, queryCues('The export test goes red now and then in CI.'), rescore));
    expect(rel.get('bug')).toBeCloseTo(0.7 * PATTERN_MISMATCH, 9);
    expect(rel.get('race')).toBe(0.6);
    // An episode that stated no pattern is no contradiction.
    expect(rel.get('quiet')).toBe(0.5);
  });

  it('and the reverse; a query that states no pattern changes nothing', () => {
    const rel = relevances(applySituation(eps, cues, queryCues('The refund test fails on every run.'), rescore));
    expect(rel.get('race')).toBeCloseTo(0.6 * PATTERN_MISMATCH, 9);
    expect(rel.get('bug')).toBe(0.7);
    expect(applySituation(eps, cues, queryCues('The refund test fails.'), rescore).map((x) => x.scores.relevance)).toEqual([0.6, 0.7, 0.5]);
  });
});

describe('dropContradicted: the best episode is like the query, so the unlike ones are left out', () => {
  const cues = new Map<string, SituationCues>([
    ['changed', { change: true, pattern: 'consistent' }],
    ['load-1', { change: false, pattern: 'intermittent' }],
    ['load-2', { change: false }],
    ['unsaid', { change: true }],
  ]);
  const fact = candidate(makeDoc({ kind: 'fact', refId: 'f', text: 'a fact' }), { scores: { relevance: 0.9 }, final: 0.9 });
  const ids = (out: Candidate[]) => out.map((c) => c.doc.refId);

  it('a query after a change whose best episode followed one too: episodes without a change go, other kinds stay', () => {
    const pool = [episode('changed', 0.8), episode('load-1', 0.5), episode('load-2', 0.4), episode('unsaid', 0.3), fact];
    expect(ids(dropContradicted(pool, cues, { change: true }))).toEqual(['changed', 'unsaid', 'f']);
  });

  it('nothing goes when the best episode does not match the query, or the query states nothing', () => {
    const pool = [episode('load-1', 0.9), episode('changed', 0.8), episode('load-2', 0.4)];
    expect(ids(dropContradicted(pool, cues, { change: true }))).toEqual(['load-1', 'changed', 'load-2']);
    expect(ids(dropContradicted([episode('changed', 0.8), episode('load-1', 0.5)], cues, { change: false }))).toEqual(['changed', 'load-1']);
  });

  it('the symptom pattern: an every-time query drops the intermittent episodes, not those that state no pattern', () => {
    const pool = [episode('changed', 0.8), episode('load-1', 0.5), episode('load-2', 0.4)];
    expect(ids(dropContradicted(pool, cues, queryCues('The refund test fails on every run.')))).toEqual(['changed', 'load-2']);
    // The best episode must state the query's pattern itself: one that states none is no match.
    expect(ids(dropContradicted([episode('load-2', 0.9), episode('load-1', 0.5)], cues, queryCues('It fails on every run.')))).toEqual(['load-2', 'load-1']);
  });
});

describe('dropContradicted: a best episode that contradicts the query stays, behind the best one that matches', () => {
  const cues = new Map<string, SituationCues>([
    ['beta', { change: false }],
    ['beta-2', { change: false }],
    ['update', { change: true }],
    ['update-2', { change: true }],
    ['maybe', { change: false, mayHaveChanged: true }],
  ]);
  const fact = candidate(makeDoc({ kind: 'fact', refId: 'f', text: 'a fact' }), { scores: { relevance: 0.95 }, final: 0.95 });
  const byFinal = (out: Candidate[]) => [...out].sort((a, b) => b.scores.final - a.scores.final).map((c) => c.doc.refId);

  it('the contradicted episodes above it move just below it, in their own order; nothing is left out', () => {
    const pool = [episode('beta', 0.9), episode('beta-2', 0.8), episode('update', 0.6), episode('update-2', 0.3), fact];
    const out = dropContradicted(pool, cues, { change: true });
    expect(byFinal(out)).toEqual(['f', 'update', 'beta', 'beta-2', 'update-2']);
    expect(out.find((c) => c.doc.refId === 'beta')!.scores.final).toBeLessThan(0.6);
    expect(out.find((c) => c.doc.refId === 'beta-2')!.scores.final).toBeGreaterThan(0.3);
  });

  it('names the move in the breakdown: `situation` is what final fell by; an episode not moved carries none', () => {
    const pool = [episode('beta', 0.9), episode('update', 0.6), episode('update-2', 0.3)];
    const out = dropContradicted(pool, cues, { change: true });
    const beta = out.find((c) => c.doc.refId === 'beta')!;
    expect(beta.scores.situation).toBeLessThan(0);
    expect(0.9 + beta.scores.situation!).toBeCloseTo(beta.scores.final, 12);
    for (const id of ['update', 'update-2']) expect(out.find((c) => c.doc.refId === id)!.scores.situation).toBeUndefined();
  });

  it('an episode that only may have followed a change is no match: without a stated one, the order stays', () => {
    const pool = [episode('beta', 0.9), episode('maybe', 0.6)];
    expect(dropContradicted(pool, cues, { change: true })).toEqual(pool);
    // Nor is it moved: it does not contradict the query.
    const withLead = [episode('maybe', 0.9), episode('update', 0.6)];
    expect(dropContradicted(withLead, cues, { change: true })).toEqual(withLead);
  });

  it('an episode whose established cause names a change is no sure contradiction and is not moved', () => {
    const withCause = new Map(cues).set('release', { change: false, causeChange: new Set(['bug', 'app']) });
    const pool = [episode('release', 0.9), episode('beta', 0.8), episode('update', 0.6)];
    expect(byFinal(dropContradicted(pool, withCause, { change: true }))).toEqual(['release', 'update', 'beta']);
  });

  it('a query that states nothing moves nothing', () => {
    const pool = [episode('beta', 0.9), episode('update', 0.6)];
    expect(dropContradicted(pool, cues, { change: false })).toEqual(pool);
  });
});

describe('what changed: the thing the change names', () => {
  const query = queryCues('After the agent edited the config, the docs build stops with a parse error.');
  const own = (text: string): SituationCues => ({ change: true, changed: queryCues(text).changed });
  const cues = new Map<string, SituationCues>([
    ['commit', own("Build fails right after the agent's commit: unexpected token.")],
    ['image', own('Every build fails since the base build container was switched to the new toolchain image today.')],
    ['load', { change: false }],
  ]);

  it('when some episode changed what the query names, the ones that changed something else fall behind', () => {
    const rel = relevances(applySituation([episode('image', 0.7), episode('commit', 0.6), episode('load', 0.5)], cues, query, rescore));
    expect(rel.get('commit')).toBe(0.6);
    expect(rel.get('image')).toBeCloseTo(0.7 * CHANGE_MISMATCH, 9);
    expect(rel.get('load')).toBeCloseTo(0.5 * CHANGE_MISMATCH, 9);
  });

  it('with no episode changing the same thing, a change of another thing is no mismatch', () => {
    const rel = relevances(applySituation([episode('image', 0.7), episode('load', 0.5)], cues, query, rescore));
    expect(rel.get('image')).toBe(0.7);
  });

  it('the best changed the same thing: the changes of other things are dropped with the episodes that followed none', () => {
    const scaled = applySituation([episode('image', 0.7), episode('commit', 0.6), episode('load', 0.5)], cues, query, rescore);
    expect(dropContradicted(scaled, cues, query).map((c) => c.doc.refId)).toEqual(['commit']);
  });

  it('the best changed another thing than the query names: nothing is dropped', () => {
    const other = queryCues('Since the analyst changed the dashboard, only weekend data shows.');
    const c = new Map<string, SituationCues>([['image', cues.get('image')!], ['load', { change: false }]]);
    expect(dropContradicted([episode('image', 0.7), episode('load', 0.5)], c, other).map((x) => x.doc.refId)).toEqual(['image', 'load']);
    // The same best episode for a query that names no changed thing: the no-change episode goes, as before.
    expect(dropContradicted([episode('image', 0.7), episode('load', 0.5)], c, { change: true }).map((x) => x.doc.refId)).toEqual(['image']);
  });
});

describe('a change-driven cause and a query that names no change', () => {
  it('reads a cause that names a change, and the query words only when the query names none', () => {
    expect(causeChangeOf('A bug in the new app release encoding passwords twice.')).toEqual(new Set(['bug', 'app', 'encod', 'password', 'twic']));
    expect(causeChangeOf('Credential stuffing with credentials leaked from another breach.')).toBeUndefined();
    expect(causeChangeOf('Nothing was deployed; the disk filled up.')).toBeUndefined();
    expect(queryCues('Alert: sustained failed-login storm against webmail accounts.').words?.size).toBeGreaterThan(0);
    expect(queryCues("The agent's refactor made test_fee_calculation fail on every run.").words).toBeUndefined();
  });

  it('scales a change-driven case whose cause the query does not speak of; one it speaks of, or a changing query, stays', () => {
    const eps = [episode('release', 0.6), episode('attack', 0.5), episode('portal', 0.4)];
    const cues = new Map<string, SituationCues>([
      ['release', { change: false, causeChange: causeChangeOf('A bug in the new app release encoding passwords twice.') }],
      ['attack', { change: false }],
      ['portal', { change: false, causeChange: causeChangeOf('The portal login page update broke the form.') }],
    ]);
    const rel = relevances(applySituation(eps, cues, queryCues('IDS alert: unusual login failure volume on the partner portal overnight.'), rescore));
    expect(rel.get('release')).toBeCloseTo(0.6 * CHANGE_MISMATCH, 9);
    expect(rel.get('attack')).toBe(0.5);
    expect(rel.get('portal')).toBe(0.4);
    // A query that states a change: only the stated-change rule applies (once), to every case without one.
    const changing = relevances(applySituation(eps, cues, queryCues('Failed logins doubled after the new login page was deployed.'), rescore));
    expect(changing.get('release')).toBeCloseTo(0.6 * CHANGE_MISMATCH, 9);
    expect(changing.get('attack')).toBeCloseTo(0.5 * CHANGE_MISMATCH, 9);
  });
});

describe('a negation about who is affected names a change, it denies none', () => {
  it('"customers who had not updated" names updating: the query is not one that states no change', () => {
    expect(causeChangeOf('Support inbox flooded with "app opens then vanishes" from customers who had not updated in a year.')).toBeDefined();
    expect(queryCues('Support inbox flooded with "app opens then vanishes" from customers who had not updated in a year.').words).toBeUndefined();
    expect(causeChangeOf('Riders whose phones never upgraded report blank screens.')).toBeDefined();
  });

  it('a denied change stays denied', () => {
    expect(causeChangeOf('The build broke overnight with no code change.')).toBeUndefined();
    expect(queryCues('The build broke overnight with no code change.').words).toBeDefined();
    expect(causeChangeOf('Checkout fails although nothing was deployed.')).toBeUndefined();
  });
});
