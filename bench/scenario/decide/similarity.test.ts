import { describe, expect, it } from 'vitest';
import { coverage, leadingPhrase, leadLikeness, lexicalLikeness, rescale, stemsContained } from './similarity.js';

describe('cause likeness by words', () => {
  it('a cause leads with the failing thing; the particulars follow a preposition, colon, dash or comma', () => {
    expect(leadingPhrase('Clock skew between ledger hosts: the time daemon had stopped')).toBe('Clock skew');
    expect(leadingPhrase('Scratch volume full — temp files never cleaned')).toBe('Scratch volume full');
    expect(leadingPhrase('Expired signing certificate on the partner gateway')).toBe('Expired signing certificate');
  });

  it('two causes that lead with the same thing are alike even when the rest differs', () => {
    const a = 'Clock skew between ledger hosts: the time daemon had stopped on two of them';
    const b = 'Clock drift on the proxy host: time sync switched off, so fresh signatures looked premature';
    expect(leadLikeness(a, b)).toBe(0.5);
    // The word view alone sees two long causes sharing little.
    expect(lexicalLikeness(a, b)).toBeLessThan(0.5);
  });

  it('causes that lead with different things are not alike by their lead, whatever they share later', () => {
    expect(leadLikeness('Clock skew on the ledger hosts', 'Scheduled backup saturating the ledger hosts')).toBe(0);
    expect(leadLikeness('Expired signing certificate', 'Memory leak in the signing service')).toBe(0);
  });

  it('a shared compound makes two phrasings of a cause alike', () => {
    expect(lexicalLikeness('Scratch volume full of temp files', 'Export volume full after a large export')).toBeGreaterThanOrEqual(0.75);
  });

  it('containment and coverage work on specific stems', () => {
    expect(stemsContained('the signing key', 'a rotated signing key on the gateway')).toBe(true);
    expect(stemsContained('the signing key', 'a rotated key')).toBe(false);
    expect(coverage('a report mentions volume and export', 'Export job crashing on the shared volume')).toBe(1);
  });

  it('rescale maps the floor to 0 and the ceiling to 1', () => {
    expect(rescale(0.3, 0.3)).toBe(0);
    expect(rescale(0.95, 0.3)).toBe(1);
    expect(rescale(0.625, 0.3)).toBeCloseTo(0.5);
  });
});
