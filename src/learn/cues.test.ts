import { describe, expect, it } from 'vitest';
import { classifyOutcome, parseCorrection, statedText } from './cues.js';
import { stemSet } from './text.js';

describe('classifyOutcome', () => {
  it.each([
    ['Outcome: failure. Root cause: the export volume filled up.', 'FAILURE'],
    ['The restart did not fix it.', 'FAILURE'],
    ['Rollback resolved the errors immediately.', 'SUCCESS'],
    ['Partially mitigated by raising the limit.', 'PARTIAL'],
  ] as const)('%s → %s', (text, label) => {
    expect(classifyOutcome(text)).toBe(label);
  });

  it('a negated noun that merely starts like a success word is no verdict', () => {
    expect(classifyOutcome('Was actually the scratch volume, not a stuck worker.')).toBe('UNKNOWN');
    expect(classifyOutcome('No helper thread was involved.')).toBe('UNKNOWN');
    expect(classifyOutcome('It is not working since the upgrade.')).toBe('FAILURE');
  });
});

describe('parseCorrection', () => {
  it('reads "was actually X, not Y" and "Not Y — … Root cause was X"', () => {
    expect(parseCorrection('Was actually the spool, not a memory leak.')).toEqual({ actual: 'the spool', mistaken: 'a memory leak' });
    expect(parseCorrection('Not the quota — it began with the flag flip. Root cause was malformed queries.')).toEqual({ mistaken: 'the quota', actual: 'malformed queries' });
  });
});

describe('statedText', () => {
  it('leaves out what a text denies and keeps what it states', () => {
    const stems = stemSet(statedText('Ledger writes failing right after the release. Disk usage unchanged; no errors in the proxy, queries are fine.'));
    for (const kept of ['ledger', 'writ', 'releas']) expect(stems.has(kept), kept).toBe(true);
    for (const denied of ['disk', 'usag', 'proxy', 'queri']) expect(stems.has(denied), denied).toBe(false);
  });

  it('a denial ends at the comma or the clause', () => {
    const stems = stemSet(statedText('Not during a traffic peak, but the cache hit rate dropped.'));
    expect(stems.has('traffic')).toBe(false);
    expect(stems.has('cach')).toBe(true);
  });
});
