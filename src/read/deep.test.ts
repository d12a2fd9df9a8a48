import { describe, expect, it } from 'vitest';
import { parseContextConfig } from '../core/config.js';
import { headFirst, joinDeep, splitDeep } from './deep.js';
import { DropLog } from './explain.js';
import { candidate, makeDoc } from './fixtures.test-support.js';

const floor = parseContextConfig({}).semantic_retrieval.relevance_floor;
const doc = (docId: number, text: string) => makeDoc({ docId, kind: 'event', refId: `evt_${docId}`, text });

describe('deep candidates', () => {
  const ranked = [1, 2, 3, 4, 5].map((id) => candidate(doc(id, `memory ${id}`)));
  const deep = new Set([2, 4]);

  it('splits the ones found only past the calibration head from the rest, each part in its order', () => {
    const { head, tail } = splitDeep(ranked, deep);
    expect(head.map((c) => c.doc.docId)).toEqual([1, 3, 5]);
    expect(tail.map((c) => c.doc.docId)).toEqual([2, 4]);
    expect(headFirst(ranked, deep).map((c) => c.doc.docId)).toEqual([1, 3, 5, 2, 4]);
    expect(headFirst(ranked, new Set())).toEqual(ranked);
    // A window event joined from the timeline has no docId: never deep.
    const timeline = candidate(doc(2, 'memory 2'));
    const fromTimeline = { ...timeline, doc: { ...timeline.doc, docId: undefined } };
    expect(splitDeep([fromTimeline], deep).head).toEqual([fromTimeline]);
  });

  it('joins the deep ones not already present and above the floor, marked deep; the rest dropped by the floor', () => {
    const semantic = [candidate(doc(10, 'checkout latency after the deploy'))];
    const tail = [candidate(doc(11, 'checkout latency spikes at noon')), candidate(doc(12, 'the garden needs water')), candidate({ ...doc(13, 'checkout again'), refId: 'evt_10' })];
    const drops = new DropLog();
    const joined = joinDeep(tail, semantic, { floor, query: 'checkout latency', queryVector: undefined, vectors: new Map(), drops });
    expect(joined.map((c) => [c.doc.refId, c.deep])).toEqual([['evt_11', true]]);
    // The copy of evt_10 is the record kept among the candidates: not logged as dropped (a later step may drop it by its own reason).
    expect(drops.list().map((d) => [d.id, d.reason])).toEqual([['evt_12', 'floor']]);
    // Without the floor only the copies stay out; without a head kept, nothing joins.
    expect(joinDeep(tail, semantic, { floor: { ...floor, enabled: false }, query: 'checkout latency', queryVector: undefined, vectors: new Map() })).toHaveLength(2);
    expect(joinDeep(tail, [], { floor, query: 'checkout latency', queryVector: undefined, vectors: new Map() })).toEqual([]);
  });

  it("joins for search as for getContext, without the floor: copies of a record already joined stay out, the rest join in order", () => {
    const semantic = [candidate(doc(10, 'checkout latency after the deploy'))];
    // evt_10 again under another doc id (a copy of the record), and a memory the floor would drop.
    const tail = [candidate(doc(12, 'the garden needs water')), candidate({ ...doc(13, 'checkout again'), refId: 'evt_10' }), candidate(doc(11, 'checkout latency spikes at noon'))];
    expect(joinDeep(tail, semantic).map((c) => [c.doc.refId, c.deep])).toEqual([
      ['evt_12', true],
      ['evt_11', true],
    ]);
    // Search has no floor to leave nothing: with no head the deep ones still join.
    expect(joinDeep(tail, []).map((c) => c.doc.refId)).toEqual(['evt_12', 'evt_10', 'evt_11']);
    expect(joinDeep([], semantic)).toEqual([]);
  });
});
