import { describe, expect, it } from 'vitest';
import type { Episode } from '../core/types.js';
import { candidate, makeDoc, makeFact } from './fixtures.test-support.js';
import { namesMistaken, overturnedNotes, withoutCorrectionsOfConfirmed, withoutOverturned } from './overturned.js';
import type { Candidate } from './types.js';

function item(id: string, relevance: number, final = relevance, corrected?: number): Candidate {
  const c = candidate(makeDoc({ kind: 'episode', refId: id, text: `episode ${id}`, type: 'FAILURE' }), { scores: { relevance }, final });
  return corrected === undefined ? c : { ...c, scores: { ...c.scores, corrected } };
}

function episode(id: string, startSeq: number, rootCause: string, corrections: string[] = [], assumptions: string[] = []): Episode {
  return { id, startSeq, rootCause, corrections, assumptions } as unknown as Episode;
}

const episodes = new Map([
  ['old1', episode('old1', 1, 'The new provider signs with a selector whose public key was never published in DNS, so signatures fail.')],
  ['old2', episode('old2', 2, 'The public key record was lost in the DNS zone migration, so signatures fail.')],
  ['other', episode('other', 3, 'The customer gateway quarantined our mail because of shortened links.')],
  [
    'fix',
    episode('fix', 6, 'Our sending IP was blocklisted after a compromised account sent phishing.', ['Was actually our sending IP being blocklisted, not the public key in DNS.'], [
      'signatures failing after a DNS change',
    ]),
  ],
  ['later', episode('later', 8, 'The public key record went missing from DNS again after the provider switch.')],
]);
const of = (id: string) => episodes.get(id);
const ids = (out: Candidate[]) => out.map((c) => c.doc.refId).sort();

describe('namesMistaken', () => {
  it('a cause that names what the correction held is overturned; an unrelated one is not', () => {
    const fix = episodes.get('fix')!;
    expect(namesMistaken(fix, episodes.get('old2')!.rootCause!)).toBe(true);
    expect(namesMistaken(fix, episodes.get('other')!.rootCause!)).toBe(false);
    expect(namesMistaken(fix, undefined)).toBe(false);
  });
});

describe('withoutOverturned', () => {
  it('the closest case is a correction: the earlier cases of the cause it overturned leave, with a note', () => {
    const pool = [item('fix', 0.6), item('old1', 0.5), item('old2', 0.55), item('other', 0.4)];
    const out = withoutOverturned(pool, of);
    expect(ids(out)).toEqual(['fix', 'other']);
    const fix = out.find((c) => c.doc.refId === 'fix')!;
    expect(fix.overturned?.ids.sort()).toEqual(['old1', 'old2']);
    const notes = overturnedNotes(out);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.droppedIds.sort()).toEqual(['old1', 'old2']);
    expect(notes[0]!.note).toContain('2 earlier cases');
  });

  it('a correction first only through the lift of corrected.ts is not the closest: nothing leaves', () => {
    const pool = [item('fix', 0.5, 0.9, 0.2), item('old1', 0.55, 0.8), item('other', 0.4)];
    expect(ids(withoutOverturned(pool, of))).toEqual(['fix', 'old1', 'other']);
  });

  it('a case more relevant than the correction stays, and so does a later case of the overturned cause', () => {
    const pool = [item('fix', 0.6, 0.9), item('old1', 0.7, 0.8), item('old2', 0.5), item('later', 0.5)];
    expect(ids(withoutOverturned(pool, of))).toEqual(['fix', 'later', 'old1']);
  });

  it('a case of the correction\'s own cause stays, though it names the mistaken words too', () => {
    const own = episode('own', 4, 'Our sending IP was blocklisted after a compromised account sent spam; the public key in DNS was fine.');
    const ofAll = (id: string) => (id === 'own' ? own : of(id));
    expect(namesMistaken(episodes.get('fix')!, own.rootCause)).toBe(true);
    const pool = [item('fix', 0.6, 0.9), item('old2', 0.5), item('own', 0.5)];
    expect(ids(withoutOverturned(pool, ofAll))).toEqual(['fix', 'own']);
  });

  it('the closest case holds no correction: nothing changes', () => {
    const pool = [item('old2', 0.7), item('fix', 0.6), item('old1', 0.5)];
    const out = withoutOverturned(pool, of);
    expect(ids(out)).toEqual(['fix', 'old1', 'old2']);
    expect(overturnedNotes(out)).toEqual([]);
  });

  function rule(id: string, sources: string[] | undefined, kind: 'heuristic' | 'insight' | 'fact' = 'heuristic'): Candidate {
    const fact = makeFact({ id, kind, text: `rule ${id}`, provenance: { origin: 'extraction', ...(sources ? { episodeIds: sources } : {}) } });
    return candidate(makeDoc({ kind: 'fact', refId: id, text: fact.text, type: kind }), { scores: { relevance: 0.5 }, final: 0.5, fact });
  }

  it('a learned rule drawn only from the overturned cases leaves with them, named in the note; others stay', () => {
    const stale = rule('r_stale', ['old1', 'old2']);
    const insight = rule('r_insight', ['old2'], 'insight');
    const mixed = rule('r_mixed', ['old1', 'other']);
    const withFix = rule('r_fix', ['old1', 'fix']);
    const unknown = rule('r_unknown', undefined);
    const stated = rule('r_fact', ['old1'], 'fact');
    const pool = [item('fix', 0.6), item('old1', 0.5), item('old2', 0.55), item('other', 0.4), stale, insight, mixed, withFix, unknown, stated];
    const out = withoutOverturned(pool, of);
    expect(ids(out)).toEqual(['fix', 'other', 'r_fact', 'r_fix', 'r_mixed', 'r_unknown']);
    const fix = out.find((c) => c.doc.refId === 'fix')!;
    expect(fix.overturned?.rules?.sort()).toEqual(['r_insight', 'r_stale']);
    const [note] = overturnedNotes(out);
    expect(note!.droppedIds.sort()).toEqual(['old1', 'old2', 'r_insight', 'r_stale']);
    expect(note!.itemIds[0]).toBe('fix');
    expect(note!.note).toContain('2 earlier cases of the cause this closer case corrected (and 2 learned rules drawn only from them) left out as overturned');
  });

  it('a rule drawn from a case that stays (more relevant than the correction) stays too', () => {
    const pool = [item('fix', 0.6, 0.9), item('old1', 0.7, 0.8), item('old2', 0.5), rule('r_both', ['old1', 'old2']), rule('r_old2', ['old2'])];
    const out = withoutOverturned(pool, of);
    expect(ids(out)).toEqual(['fix', 'old1', 'r_both']);
    expect(overturnedNotes(out)[0]!.note).toContain('1 earlier case of the cause this closer case corrected (and 1 learned rule drawn only from them)');
  });

  it('when the closest case holds no correction, no rule leaves', () => {
    const pool = [item('old2', 0.7), item('fix', 0.6), item('old1', 0.5), rule('r_stale', ['old1', 'old2'])];
    expect(ids(withoutOverturned(pool, of))).toEqual(['fix', 'old1', 'old2', 'r_stale']);
  });
});

describe('withoutCorrectionsOfConfirmed', () => {
  it('the closest case is a later, uncorrected case of the cause an earlier correction called the mistake: that correction leaves', () => {
    const pool = [item('later', 0.7), item('fix', 0.6), item('other', 0.4)];
    expect(ids(withoutCorrectionsOfConfirmed(pool, of))).toEqual(['later', 'other']);
  });

  it('a correction more relevant than the closest case stays', () => {
    const pool = [item('later', 0.5, 0.9), item('fix', 0.6, 0.8), item('other', 0.4)];
    expect(ids(withoutCorrectionsOfConfirmed(pool, of))).toEqual(['fix', 'later', 'other']);
  });

  it('a correction later than the closest case stays: it may have overturned it', () => {
    const pool = [item('old2', 0.7), item('fix', 0.6), item('old1', 0.5)];
    expect(ids(withoutCorrectionsOfConfirmed(pool, of))).toEqual(['fix', 'old1', 'old2']);
  });

  it('the closest case holds a correction itself, or names no cause: nothing changes', () => {
    const pool = [item('fix', 0.7), item('old1', 0.6)];
    expect(ids(withoutCorrectionsOfConfirmed(pool, of))).toEqual(['fix', 'old1']);
    const noCause = (id: string) => (id === 'later' ? ({ ...episodes.get('later')!, rootCause: undefined } as Episode) : of(id));
    expect(ids(withoutCorrectionsOfConfirmed([item('later', 0.7), item('fix', 0.6)], noCause))).toEqual(['fix', 'later']);
  });

  it('a correction whose mistaken belief names another cause stays', () => {
    const pool = [item('other', 0.7), item('fix', 0.6)];
    const laterOther = (id: string) => (id === 'other' ? { ...episodes.get('other')!, startSeq: 9 } : of(id));
    expect(ids(withoutCorrectionsOfConfirmed(pool, laterOther))).toEqual(['fix', 'other']);
  });
});
