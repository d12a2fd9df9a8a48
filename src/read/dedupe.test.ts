import { describe, expect, it } from 'vitest';
import { dedupe } from './dedupe.js';
import { candidate, eventCandidate, makeDoc, makeEvent } from './fixtures.test-support.js';

describe('dedupe', () => {
  it('collapses a window event and the semantic hit of the same record, keeping the window section and its signals', () => {
    const e = makeEvent({ content: 'kubectl rollout status payments: available' });
    const inWindow = eventCandidate(e, { origin: 'window', final: 0.3 });
    const asHit = candidate({ ...inWindow.doc, docId: 99 }, { origin: 'semantic', final: 0.9, scores: { vector: 0.8, lexical: 0.4, relevance: 0.88 } });
    const { items, removed } = dedupe([inWindow, asHit], 'source+hash');
    expect(removed).toBe(1);
    expect(items).toHaveLength(1);
    expect(items[0]!.origin).toBe('window');
    expect(items[0]!.scores).toMatchObject({ vector: 0.8, lexical: 0.4, relevance: 0.88, final: 0.9 });
    expect(items[0]!.event).toBe(e);
  });

  it('keeps the lift that made the higher final score, so the breakdown still accounts for it', () => {
    const e = makeEvent({ content: 'kubectl rollout status payments: available' });
    const inWindow = eventCandidate(e, { origin: 'window', final: 0.3 });
    const asHit = candidate({ ...inWindow.doc, docId: 99 }, { origin: 'semantic', final: 0.9, scores: { relevance: 0.8, corrected: 0.1 } });
    const { items } = dedupe([inWindow, asHit], 'source+hash');
    expect(items[0]!.scores).toMatchObject({ corrected: 0.1, final: 0.9 });
    const moved = candidate({ ...inWindow.doc, docId: 99 }, { origin: 'semantic', final: 0.9, scores: { relevance: 0.8, situation: -0.05 } });
    expect(dedupe([inWindow, moved], 'source+hash').items[0]!.scores).toMatchObject({ situation: -0.05, final: 0.9 });
  });

  it("keeps a weak match's mark (floor.ts) whichever copy's score wins, and marks nothing when neither copy was weak", () => {
    const e = makeEvent({ content: 'kubectl rollout status payments: available' });
    const inWindow = eventCandidate(e, { origin: 'window', final: 0.3 });
    const weakHit = (final: number) => candidate({ ...inWindow.doc, docId: 99 }, { origin: 'semantic', final, scores: { relevance: 0.4, weak: true } });
    for (const order of [[inWindow, weakHit(0.9)], [weakHit(0.9), inWindow], [inWindow, weakHit(0.1)]]) {
      const [item] = dedupe(order, 'source+hash').items;
      expect(item!.origin).toBe('window');
      expect(item!.scores.weak).toBe(true);
    }
    const strongHit = candidate({ ...inWindow.doc, docId: 99 }, { origin: 'semantic', final: 0.9, scores: { relevance: 0.8 } });
    expect(dedupe([inWindow, strongHit], 'source+hash').items[0]!.scores.weak).toBeUndefined();
  });

  it('reports the breakdown of the copy whose final score it keeps, so its terms account for that score', () => {
    const e = makeEvent({ content: 'kubectl rollout status payments: available' });
    const base = eventCandidate(e, { origin: 'window' });
    // The window copy has vector evidence of its own; the semantic copy scored higher on a fused relevance and a lift.
    const inWindow = { ...base, scores: { ...base.scores, vector: 0.3, relevance: 0.3, recency: 0.5, importance: 0.5, confidence: 1, final: 0.5 } };
    const asHit = candidate({ ...base.doc, docId: 99 }, { origin: 'semantic', scores: { lexical: 0.9, relevance: 0.8, recency: 0.5, importance: 0.5, confidence: 1, graph: 0.05, final: 0.75 } });
    for (const order of [[inWindow, asHit], [asHit, inWindow]]) {
      const { items } = dedupe(order, 'source+hash');
      expect(items[0]!.origin).toBe('window');
      // The semantic copy's terms and lift; the evidence it lacked (vector) from the window copy.
      expect(items[0]!.scores).toMatchObject({ vector: 0.3, lexical: 0.9, relevance: 0.8, graph: 0.05, final: 0.75 });
    }
    // The other way round, the window copy's relevance stays with its own final score.
    const low = { ...asHit, scores: { ...asHit.scores, relevance: 0.2, graph: null, final: 0.4 } };
    expect(dedupe([inWindow, low], 'source+hash').items[0]!.scores).toMatchObject({ vector: 0.3, lexical: 0.9, relevance: 0.3, final: 0.5 });
  });

  it("'source+hash' merges equal text from one source but keeps it from different sources", () => {
    const a = candidate(makeDoc({ text: 'Rollback needs approval.', source: 'runbook.md' }), { final: 0.5 });
    const b = candidate(makeDoc({ text: 'Rollback needs approval.', source: 'runbook.md' }), { final: 0.7 });
    const c = candidate(makeDoc({ text: 'Rollback needs approval.', source: 'wiki.md' }), { final: 0.6 });
    const { items } = dedupe([a, b, c], 'source+hash');
    expect(items.map((i) => i.doc.refId)).toEqual([b.doc.refId, c.doc.refId]);
  });

  it("'hash' merges equal text whatever the source; 'none' only merges the same record", () => {
    const a = candidate(makeDoc({ text: 'Same words.', source: 'a.md' }), { final: 0.9 });
    const b = candidate(makeDoc({ text: 'Same words.', source: 'b.md' }), { final: 0.2 });
    expect(dedupe([a, b], 'hash').items.map((i) => i.doc.refId)).toEqual([a.doc.refId]);
    expect(dedupe([a, b], 'none').items).toHaveLength(2);
    expect(dedupe([a, { ...a }], 'none').items).toHaveLength(1);
  });

  it('prefers the window copy over a better-scored semantic copy of the same text', () => {
    const e = makeEvent({ content: 'Deploy finished.' });
    const w = eventCandidate(e, { origin: 'window', final: 0.1 });
    const other = candidate(makeDoc({ kind: 'event', refId: 'evt_other', text: 'Deploy finished.', contentHash: w.doc.contentHash }), { final: 0.9 });
    const { items } = dedupe([other, w], 'hash');
    expect(items).toHaveLength(1);
    expect(items[0]!.doc.refId).toBe(e.id);
    // Different records: the loser's signals are not grafted onto the winner.
    expect(items[0]!.scores.final).toBe(0.1);
  });

  it('keeps first-seen positions', () => {
    const docs = ['one', 'two', 'three'].map((t) => candidate(makeDoc({ text: t })));
    expect(dedupe([...docs, docs[0]!], 'source+hash').items.map((i) => i.doc.text)).toEqual(['one', 'two', 'three']);
  });
});
