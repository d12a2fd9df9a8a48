import { describe, expect, it } from 'vitest';
import type { Episode } from '../core/types.js';
import { candidate, makeDoc } from './fixtures.test-support.js';
import { namesMistaken, overturnedNotes, withoutOverturned } from './overturned.js';
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
});
