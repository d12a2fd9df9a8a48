import { describe, expect, it } from 'vitest';
import type { Episode } from '../core/types.js';
import { candidate, makeDoc, makeFact } from './fixtures.test-support.js';
import { leftOutNote, replacementsIn, ruleLeavingWith, rulesPhrase, statesReplaced, supersededCases, supersededNotes, supersededRuleBy, withoutSuperseded } from './supersede.js';
import type { Candidate } from './types.js';

function ep(id: string, endTs: number, rootCause: string, corrections: string[] = []): Episode {
  return {
    id, tenant: 't', streamKey: 's', startSeq: 0, endSeq: 0, startTs: endTs, endTs, eventIds: [], summary: id, outcome: 'SUCCESS',
    decisions: [], assumptions: [], corrections, rootCause, importance: 0, closed: true, metadata: {}, recordedAt: endTs,
  } as Episode;
}

function cand(id: string, final: number): Candidate {
  return candidate(makeDoc({ kind: 'episode', refId: id, text: `episode ${id}`, type: 'SUCCESS' }), { scores: { relevance: final }, final });
}

describe('replacementsIn', () => {
  it('reads "<thing> moved|changed to <new>", cutting the value at its reason', () => {
    const [r] = replacementsIn('The nightly backup window moved to Sunday after the storage migration.');
    expect([...r!.thing]).toEqual(expect.arrayContaining(['backup', 'window']));
    expect([...r!.now!]).toEqual(['sunday']);
  });

  it('reads "<thing> are now <new>" and "<thing> is no longer <old>" in a correction', () => {
    const rs = replacementsIn('Not the network: the invoices are now exported by the warehouse job; the legacy cron is no longer scheduled.');
    expect(rs).toHaveLength(2);
    expect(rs[0]!.now!.has('warehous')).toBe(true);
    expect(rs[1]!.was!.size).toBeGreaterThan(0);
  });

  it('reads nothing from a cause that states no replacement', () => {
    expect(replacementsIn('The connection pool was exhausted at peak load.')).toEqual([]);
  });
});

describe('statesReplaced', () => {
  const [r] = replacementsIn('The nightly backup window moved to Sunday.');
  it('an earlier cause naming the thing but not the new value still states the old answer', () => {
    expect(statesReplaced('The nightly backup window on Saturday saturated the disks.', r!)).toBe(true);
  });
  it('a cause naming the new value, or not naming the thing, does not', () => {
    expect(statesReplaced('The nightly backup window on Sunday saturated the disks.', r!)).toBe(false);
    expect(statesReplaced('A stale certificate on the gateway.', r!)).toBe(false);
  });
});

describe('supersededCases', () => {
  const old1 = ep('old1', 1, 'The nightly backup window on Saturday saturated the disks.');
  const old2 = ep('old2', 2, 'Saturday backup window again saturating the disks overnight.');
  const other = ep('other', 3, 'A stale certificate on the gateway.');
  const newer = ep('newer', 4, 'The nightly backup window moved to Sunday, so Sunday nights now saturate the disks.');
  const same = (a: string, b: string) => ['old1', 'old2', 'newer'].includes(a) && ['old1', 'old2', 'newer'].includes(b);

  it('marks the earlier cases of the cause that state the replaced answer, naming the later case', () => {
    const s = supersededCases([old1, old2, other, newer], same);
    expect([...s.by.keys()].sort()).toEqual(['old1', 'old2']);
    expect(s.by.get('old1')!.id).toBe('newer');
  });

  it('never marks a case of another cause, nor a later one', () => {
    const s = supersededCases([old1, other, newer], () => true);
    expect(s.by.has('other')).toBe(false);
    expect(s.by.has('newer')).toBe(false);
  });

  it('follows the replaced cases one step when the look-alike causes do not all match the later one', () => {
    const chain = (a: string, b: string) => (a === 'newer' && b === 'old2') || (a === 'old2' && b === 'old1') || (a === 'old1' && b === 'old2');
    expect([...supersededCases([old1, old2, newer], chain).by.keys()].sort()).toEqual(['old1', 'old2']);
  });

  it('leaves the cases as they are when no later case states a replacement', () => {
    expect(supersededCases([old1, old2, other], () => true).by.size).toBe(0);
  });
});

describe('withoutSuperseded and supersededNotes', () => {
  it('drops the superseded cases, lifts the replacing case to their best score and notes what it replaced', () => {
    const s = supersededCases(
      [ep('old1', 1, 'The nightly backup window on Saturday saturated the disks.'), ep('newer', 4, 'The nightly backup window moved to Sunday.')],
      () => true,
    );
    const out = withoutSuperseded([cand('old1', 0.9), cand('newer', 0.4), cand('x', 0.5)], s);
    expect(out.map((c) => c.doc.refId)).toEqual(['newer', 'x']);
    expect(out[0]!.scores.final).toBe(0.9);
    // The lift is named in the breakdown; a candidate not lifted carries none.
    expect(out[0]!.scores.superseded).toBeCloseTo(0.5, 12);
    expect(out[0]!.scores.final).toBeCloseTo(0.4 + out[0]!.scores.superseded!, 12);
    expect(out[1]!.scores.superseded).toBeUndefined();
    const notes = supersededNotes(out);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.reason).toBe('superseded_case');
    expect(notes[0]!.droppedIds).toEqual(['old1']);
    expect(notes[0]!.note).toContain('moved to Sunday');
  });

  function rule(id: string, sources: string[] | undefined, kind: 'heuristic' | 'fact' = 'heuristic'): Candidate {
    const fact = makeFact({ id, kind, text: `rule ${id}`, provenance: { origin: 'extraction', ...(sources ? { episodeIds: sources } : {}) } });
    return candidate(makeDoc({ kind: 'fact', refId: id, text: fact.text, type: kind }), { final: 0.7, fact });
  }

  it('drops a learned rule whose every source case is superseded, and names it in the note; keeps one with a live or unknown source', () => {
    const s = supersededCases(
      [
        ep('old1', 1, 'The nightly backup window on Saturday saturated the disks.'),
        ep('old2', 2, 'Saturday backup window again saturating the disks overnight.'),
        ep('live', 3, 'A stale certificate on the gateway.'),
        ep('newer', 4, 'The nightly backup window moved to Sunday.'),
      ],
      (a, b) => a !== 'live' && b !== 'live',
    );
    const stale = rule('r_stale', ['old1', 'old2']);
    const mixed = rule('r_mixed', ['old1', 'live']);
    const unknown = rule('r_unknown', undefined);
    const stated = rule('r_fact', ['old1'], 'fact');
    expect(supersededRuleBy(stale, s)).toBe('newer');
    expect([mixed, unknown, stated].map((c) => supersededRuleBy(c, s))).toEqual([undefined, undefined, undefined]);
    const out = withoutSuperseded([cand('old1', 0.9), cand('old2', 0.8), cand('newer', 0.4), stale, mixed, unknown, stated], s);
    expect(out.map((c) => c.doc.refId)).toEqual(['newer', 'r_mixed', 'r_unknown', 'r_fact']);
    const [note] = supersededNotes(out);
    expect(note!.droppedIds).toEqual(['old2', 'old1', 'r_stale']);
    expect(note!.note).toContain('2 earlier cases of this cause (and 1 learned rule drawn only from them) left out as superseded');
  });

  it('ruleLeavingWith: the case the first source left for, only when every source left', () => {
    const left = new Map([['a', 'x'], ['b', 'y']]);
    const leftFor = (id: string) => left.get(id);
    expect(ruleLeavingWith(rule('r1', ['a', 'b']), leftFor)).toBe('x');
    expect(ruleLeavingWith(rule('r2', ['b', 'c']), leftFor)).toBeUndefined();
    expect(ruleLeavingWith(rule('r3', []), leftFor)).toBeUndefined();
    expect(ruleLeavingWith(cand('a', 0.5), leftFor)).toBeUndefined();
    expect(rulesPhrase(0)).toBe('');
    expect(rulesPhrase(2)).toBe(' (and 2 learned rules drawn only from them)');
  });
});

describe('leftOutNote', () => {
  it('prefers the shown case over the cases and rules it left out, and words the note from their counts', () => {
    const says = (cases: string, rules: string) => `${cases}${rules} left out`;
    expect(leftOutNote(cand('newer', 0.5), { ids: ['old1', 'old2'], rules: ['r1'] }, says)).toEqual({
      reason: 'superseded_case',
      action: 'preferred',
      itemIds: ['newer', 'old1', 'old2', 'r1'],
      droppedIds: ['old1', 'old2', 'r1'],
      note: '2 earlier cases (and 1 learned rule drawn only from them) left out',
    });
    expect(leftOutNote(cand('newer', 0.5), { ids: ['old1'] }, says).note).toBe('1 earlier case left out');
  });
});
