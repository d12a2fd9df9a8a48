import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngramError } from '../core/errors.js';
import type { MemoryEvent } from '../core/types.js';
import { createUseLiteEmbedder } from '../adapters/embedders/use-lite.js';
import type { Embedder } from '../ports/embedder.js';
import { incidentStream, makeEvent, T0 } from './fixtures.test-support.js';
import { Segmenter, type Segment, type SegmentDecision } from './segment.js';

const MIN = 60_000;

/** Feeds every event; returns all decisions and the closed segments in order (flushing the last one). */
function run(seg: Segmenter, events: MemoryEvent[], vectors?: Float32Array[]): { decisions: SegmentDecision[]; closed: Segment[] } {
  const decisions = events.map((e, i) => seg.push(e, vectors?.[i]));
  const closed = decisions.flatMap((d) => d.closed);
  const last = seg.flush(seg.streamKeyOf(events[0]!));
  if (last) closed.push(last);
  return { decisions, closed };
}

/** A unit vector along axis `axis` with a little of axis `axis + 1`, in 8 dimensions. */
function vec(axis: number, wobble = 0): Float32Array {
  const v = new Float32Array(8);
  v[axis % 8] = 1;
  v[(axis + 1) % 8] = wobble;
  return v;
}

describe('Segmenter on a multi-round incident stream (one state label, no time gaps)', () => {
  it('splits into exactly one episode per round, the correction joining its outcome', () => {
    const { events, perRound } = incidentStream();
    const { decisions, closed } = run(new Segmenter(), events);

    expect(closed.map((s) => s.eventIds)).toEqual(perRound.map((r) => r.map((e) => e.id)));
    // Every boundary falls on a round's report and is the explicit outcome signal.
    const boundaries = decisions.filter((d) => d.action === 'boundary');
    expect(boundaries).toHaveLength(perRound.length - 1);
    expect(boundaries.every((d) => d.reason === 'explicit')).toBe(true);
    expect(closed.every((s) => s.stateLabel === 'incident')).toBe(true);
    expect(closed[0]!.closingEventId).toBe(perRound[0]!.find((e) => e.type === 'outcome')!.id);
    expect(closed[1]).toMatchObject({ startSeq: perRound[1]![0]!.seq, endSeq: perRound[1]!.at(-1)!.seq, status: 'closed' });
  });

  it('marks the running episode as closing after the outcome, and the correction keeps it so', () => {
    const { perRound } = incidentStream();
    const seg = new Segmenter();
    const round = perRound[0]!;
    const ds = round.map((e) => seg.push(e));
    const outcomeAt = round.findIndex((e) => e.type === 'outcome');
    expect(ds[outcomeAt - 1]!.current!.status).toBe('open');
    expect(ds[outcomeAt]!.current!.status).toBe('closing');
    expect(ds[outcomeAt + 1]).toMatchObject({ action: 'continue', detail: 'follow-up to the closing outcome' });
    expect(ds[outcomeAt + 1]!.current!.status).toBe('closing');
  });

  describe('with the real USE-lite embedder', () => {
    let embedder: Embedder;
    beforeAll(async () => {
      embedder = createUseLiteEmbedder({ provider: 'use-lite', workers: 0, batchSize: 16 });
      await embedder.init();
    });
    afterAll(async () => {
      await embedder.close();
    });

    it('still yields one episode per round: related notes never trip the semantic signal', async () => {
      const { events, perRound } = incidentStream();
      const vectors = await embedder.embed(events.map((e) => e.content));
      const { decisions, closed } = run(new Segmenter(), events, vectors);
      expect(closed.map((s) => s.eventIds)).toEqual(perRound.map((r) => r.map((e) => e.id)));
      expect(decisions.some((d) => d.reason === 'semantic_shift')).toBe(false);
      expect(closed.every((s) => s.vectorCount >= 2 && s.centroid?.length === embedder.dimension)).toBe(true);
    });

    it('splits when the conversation drifts to an unrelated topic, before the first off-topic event', async () => {
      const texts = [
        'Checkout latency climbed to four seconds since noon.',
        'The checkout service waits on the inventory client for most of each request.',
        'Inventory client connection pool shows every slot in use.',
        'Let us plan the menu for the team offsite lunch on Friday.',
        'Someone prefers vegetarian dishes and someone else wants pizza.',
        'Book a table for twelve people at the Italian place downtown.',
      ];
      const events = texts.map((t, i) => makeEvent(i + 1, 'message', t, T0 + i * MIN));
      const vectors = await embedder.embed(texts);
      const { decisions, closed } = run(new Segmenter(), events, vectors);
      expect(closed.map((s) => s.eventIds)).toEqual([
        ['evt_0001', 'evt_0002', 'evt_0003'],
        ['evt_0004', 'evt_0005', 'evt_0006'],
      ]);
      const split = decisions.find((d) => d.action === 'boundary')!;
      expect(split.reason).toBe('semantic_shift');
      expect(split.carried).toEqual(['evt_0004']);
    });
  });
});

describe('Segmenter signals', () => {
  it('semantic shift: one odd event is held and released, two in a row split before the first', () => {
    const seg = new Segmenter();
    const evs = Array.from({ length: 8 }, (_, i) => makeEvent(i + 1, 'message', `m${i}`, T0 + i * MIN));
    // topic A, A, A, odd B, A, then B, B, B
    const vs = [vec(0), vec(0, 0.1), vec(0, 0.2), vec(4), vec(0, 0.1), vec(4), vec(4, 0.1), vec(4, 0.2)];
    const ds = evs.map((e, i) => seg.push(e, vs[i]));
    expect(ds[3]).toMatchObject({ action: 'continue' });
    expect(ds[3]!.detail).toMatch(/^held/);
    expect(ds[4]!.action).toBe('continue');
    expect(ds[5]!.action).toBe('continue');
    expect(ds[6]).toMatchObject({ action: 'boundary', reason: 'semantic_shift', carried: ['evt_0006'] });
    expect(ds[6]!.closed[0]!.eventIds).toEqual(['evt_0001', 'evt_0002', 'evt_0003', 'evt_0004', 'evt_0005']);
    // The odd event stayed a member but never pulled the centroid towards topic B.
    const c = ds[6]!.closed[0]!.centroid!;
    expect(c[4]).toBe(0);
    expect(ds[6]!.closed[0]!.vectorCount).toBe(4);
    expect(ds[6]!.current!.eventIds).toEqual(['evt_0006', 'evt_0007']);
    expect(ds[6]!.current!.centroid![4]).toBeGreaterThan(0.9);
    expect(ds[7]!.action).toBe('continue');
  });

  it('semantic shift waits until the centroid rests on minEventsForShift vectors', () => {
    const evs = Array.from({ length: 3 }, (_, i) => makeEvent(i + 1, 'message', `m${i}`, T0 + i * MIN));
    const loose = new Segmenter({ shiftPatience: 1, minEventsForShift: 2 });
    const ds = evs.map((e, i) => loose.push(e, [vec(0), vec(3), vec(6)][i]));
    // The 2nd event is far from the 1st, but a one-vector centroid is not trusted; the 3rd is checked.
    expect(ds[1]!.action).toBe('continue');
    expect(ds[2]).toMatchObject({ action: 'boundary', reason: 'semantic_shift', carried: [] });
  });

  it('events without vectors neither confirm nor release a held shift', () => {
    const seg = new Segmenter();
    const evs = Array.from({ length: 5 }, (_, i) => makeEvent(i + 1, 'message', `m${i}`, T0 + i * MIN));
    const vs = [vec(0), vec(0), vec(5), undefined, vec(5)];
    const ds = evs.map((e, i) => seg.push(e, vs[i]));
    expect(ds[4]).toMatchObject({ action: 'boundary', reason: 'semantic_shift', carried: ['evt_0003', 'evt_0004'] });
    expect(ds[4]!.closed[0]!.eventIds).toEqual(['evt_0001', 'evt_0002']);
  });

  it('state label transition splits only when both labels are set and differ', () => {
    const seg = new Segmenter();
    const evs = [
      makeEvent(1, 'message', 'a', T0, { stateLabel: 'triage' }),
      makeEvent(2, 'message', 'b', T0 + MIN, { stateLabel: undefined }),
      makeEvent(3, 'message', 'c', T0 + 2 * MIN, { stateLabel: 'triage' }),
      makeEvent(4, 'message', 'd', T0 + 3 * MIN, { stateLabel: 'rollout' }),
    ];
    const ds = evs.map((e) => seg.push(e));
    expect(ds.map((d) => d.action)).toEqual(['continue', 'continue', 'continue', 'boundary']);
    expect(ds[3]).toMatchObject({ reason: 'state_change', detail: 'state "triage" → "rollout"' });
    expect(ds[3]!.current!.stateLabel).toBe('rollout');
  });

  it('a segment without a label takes the first label it sees', () => {
    const seg = new Segmenter();
    seg.push(makeEvent(1, 'message', 'a', T0));
    const d = seg.push(makeEvent(2, 'message', 'b', T0 + MIN, { stateLabel: 'planning' }));
    expect(d.action).toBe('continue');
    expect(d.current!.stateLabel).toBe('planning');
  });

  it('time gap: more than gapMs apart splits, exactly gapMs does not; the gap is configurable', () => {
    const evs = [makeEvent(1, 'message', 'a', T0), makeEvent(2, 'message', 'b', T0 + 30 * MIN), makeEvent(3, 'message', 'c', T0 + 60 * MIN + 1)];
    const seg = new Segmenter();
    const real = evs.map((e) => seg.push(e));
    expect(real.map((d) => d.reason)).toEqual([undefined, undefined, 'time_gap']);

    const tight = new Segmenter({ gapMs: 10 * MIN });
    const t = evs.map((e) => tight.push(e));
    expect(t.map((d) => d.reason)).toEqual([undefined, 'time_gap', 'time_gap']);
  });

  it('explicit markers: episode start, episode end, and a state_change event', () => {
    const seg = new Segmenter();
    const evs = [
      makeEvent(1, 'message', 'a', T0),
      makeEvent(2, 'message', 'b', T0 + MIN, { metadata: { episode: 'start' } }),
      makeEvent(3, 'note', 'c', T0 + 2 * MIN, { metadata: { episode: 'end' } }),
      makeEvent(4, 'message', 'd', T0 + 3 * MIN),
      makeEvent(5, 'state_change', 'now deploying', T0 + 4 * MIN),
    ];
    const ds = evs.map((e) => seg.push(e));
    expect(ds[1]).toMatchObject({ action: 'boundary', reason: 'explicit' });
    expect(ds[1]!.closed.map((s) => s.eventIds)).toEqual([['evt_0001']]);
    // `end` closes the segment after its own event: nothing is running afterwards.
    expect(ds[2]!.action).toBe('continue');
    expect(ds[2]!.closed.map((s) => s.eventIds)).toEqual([['evt_0002', 'evt_0003']]);
    expect(ds[2]!.current).toBeUndefined();
    expect(ds[3]!.current!.openedBy).toBe('stream_start');
    expect(ds[4]).toMatchObject({ action: 'boundary', reason: 'explicit', detail: 'state_change event' });
  });

  it('after an outcome, feedback joins, any other event starts a new episode', () => {
    const seg = new Segmenter();
    const evs = [
      makeEvent(1, 'message', 'report', T0),
      makeEvent(2, 'outcome', 'fixed', T0 + MIN),
      makeEvent(3, 'feedback', 'thanks, confirmed', T0 + 2 * MIN),
      makeEvent(4, 'correction', 'actually it was the cache', T0 + 3 * MIN),
      makeEvent(5, 'note', 'next thing', T0 + 4 * MIN),
    ];
    const ds = evs.map((e) => seg.push(e));
    expect(ds.map((d) => d.action)).toEqual(['continue', 'continue', 'continue', 'continue', 'boundary']);
    expect(ds[4]!.closed[0]!.eventIds).toEqual(['evt_0001', 'evt_0002', 'evt_0003', 'evt_0004']);
    expect(ds[4]!.closed[0]!.closedBy).toBe('explicit');
  });

  it('a correction long after the outcome (beyond followUpGraceMs) starts its own episode', () => {
    const seg = new Segmenter({ followUpGraceMs: 60 * MIN });
    seg.push(makeEvent(1, 'outcome', 'tests passed', T0));
    const d = seg.push(makeEvent(2, 'correction', 'that fix was wrong', T0 + 61 * MIN));
    expect(d).toMatchObject({ action: 'boundary', reason: 'explicit' });
  });

  it('a correction joins its outcome even across a state label change', () => {
    const seg = new Segmenter();
    seg.push(makeEvent(1, 'outcome', 'rolled forward', T0, { stateLabel: 'deploying' }));
    expect(seg.push(makeEvent(2, 'correction', 'should have rolled back', T0 + MIN, { stateLabel: 'review' })).action).toBe('continue');
  });

  it('keeps streams apart: interleaved sessions segment independently', () => {
    const { perRound } = incidentStream();
    const a = perRound[0]!.map((e) => ({ ...e, sessionId: 'A' }));
    // Same times as A, half a minute later: the two sessions really interleave.
    const b = perRound[1]!.map((e, i) => ({ ...e, sessionId: 'B', ts: a[0]!.ts + i * 2 * MIN + 30_000 }));
    const seg = new Segmenter();
    const merged = [...a, ...b].sort((x, y) => x.ts - y.ts || x.seq - y.seq);
    const ds = merged.map((e) => seg.push(e));
    expect(ds.filter((d) => d.action === 'boundary')).toHaveLength(0);
    expect(seg.flush(seg.streamKeyOf(a[0]!))!.eventIds).toEqual(a.map((e) => e.id));
    expect(seg.flush(seg.streamKeyOf(b[0]!))!.eventIds).toEqual(b.map((e) => e.id));
  });

  it('rejects events out of seq order and vectors of the wrong dimension, naming the field', () => {
    const seg = new Segmenter();
    seg.push(makeEvent(5, 'message', 'a', T0), vec(0));
    const order = (() => {
      try {
        seg.push(makeEvent(5, 'message', 'b', T0));
      } catch (e) {
        return e;
      }
    })();
    expect(order).toBeInstanceOf(EngramError);
    expect((order as EngramError).issues[0]!.path).toBe('event.seq');
    expect(() => seg.push(makeEvent(6, 'message', 'c', T0), new Float32Array(3))).toThrow(/dimensions/);
  });

  it('validates options with the learn.segment path', () => {
    const e = (() => {
      try {
        new Segmenter({ gapMs: -1 });
      } catch (err) {
        return err;
      }
    })() as EngramError;
    expect(e.code).toBe('VALIDATION');
    expect(e.issues[0]!.path).toBe('learn.segment.gapMs');
  });

  it('closeIdle closes quiet open segments after gapMs and closing ones after followUpGraceMs', () => {
    const seg = new Segmenter({ gapMs: 10 * MIN, followUpGraceMs: 60 * MIN });
    seg.push(makeEvent(1, 'message', 'open one', T0, { sessionId: 'open' }));
    seg.push(makeEvent(2, 'outcome', 'done', T0, { sessionId: 'closing' }));
    expect(seg.closeIdle(T0 + 5 * MIN)).toEqual([]);
    const first = seg.closeIdle(T0 + 11 * MIN);
    expect(first.map((s) => s.scope.sessionId)).toEqual(['open']);
    expect(first[0]!.closedBy).toBe('idle');
    expect(seg.closeIdle(T0 + 61 * MIN).map((s) => s.scope.sessionId)).toEqual(['closing']);
    expect(seg.state()).toEqual([]);
  });

  it('restores from persisted state and continues exactly as the original would', () => {
    const { events } = incidentStream();
    const vs = events.map((_, i) => vec(i % 2, 0.3));
    const cut = 9;
    const original = new Segmenter();
    const expected = events.map((e, i) => original.push(e, vs[i]));

    const first = new Segmenter();
    events.slice(0, cut).forEach((e, i) => first.push(e, vs[i]));
    const resumed = Segmenter.restore(first.state());
    const got = events.slice(cut).map((e, i) => resumed.push(e, vs[cut + i]));
    expect(got.map((d) => [d.action, d.reason, d.closed.map((s) => s.eventIds)])).toEqual(
      expected.slice(cut).map((d) => [d.action, d.reason, d.closed.map((s) => s.eventIds)]),
    );
    // Restored state keeps the seq guard.
    expect(() => Segmenter.restore(first.state()).push(events[cut - 1]!)).toThrow(EngramError);
  });

  it('keeps a vector only for held events: a long stream holds one centroid, not one vector per event', () => {
    const seg = new Segmenter({ shiftPatience: 3 });
    const n = 400;
    for (let i = 0; i < n; i++) seg.push(makeEvent(i + 1, 'message', `m${i}`, T0 + i * 1000), vec(0, (i % 7) / 20));
    // Two odd events are held: only they keep their vectors (a shift would carry them into the next centroid).
    seg.push(makeEvent(n + 1, 'message', 'odd', T0 + n * 1000), vec(4));
    seg.push(makeEvent(n + 2, 'message', 'odd', T0 + (n + 1) * 1000), vec(4, 0.1));
    const [st] = seg.state();
    expect(st!.members).toHaveLength(n + 2);
    expect(st!.vectorCount).toBe(n);
    expect(st!.members.filter((m) => m.vector).map((m) => m.id)).toEqual([`evt_0${n + 1}`, `evt_0${n + 2}`]);
    expect(st!.members.filter((m) => m.inCentroid)).toHaveLength(n);
    // The third odd event confirms the shift: the held ones are carried with their vectors.
    const d = seg.push(makeEvent(n + 3, 'message', 'odd', T0 + (n + 2) * 1000), vec(4, 0.2));
    expect(d).toMatchObject({ action: 'boundary', reason: 'semantic_shift', carried: [`evt_0${n + 1}`, `evt_0${n + 2}`] });
    expect(d.current!.vectorCount).toBe(3);
    expect(seg.state()[0]!.members.filter((m) => m.vector)).toEqual([]);
  });

  it('an on-topic event releases the hold, and the held events drop their vectors', () => {
    const seg = new Segmenter();
    const vs = [vec(0), vec(0, 0.1), vec(0, 0.2), vec(4), vec(0, 0.1)];
    vs.forEach((v, i) => seg.push(makeEvent(i + 1, 'message', `m${i}`, T0 + i * MIN), v));
    const [st] = seg.state();
    expect(st!.members.filter((m) => m.vector)).toEqual([]);
    expect(st!.members.map((m) => m.inCentroid)).toEqual([true, true, true, false, true]);
    expect(st!.vectorCount).toBe(4);
  });

  it('hands out copies: mutating a snapshot does not change the segmenter', () => {
    const seg = new Segmenter();
    const d = seg.push(makeEvent(1, 'message', 'a', T0), vec(0));
    d.current!.eventIds.push('evt_bogus');
    d.current!.centroid![0] = 42;
    const peek = seg.peek(d.streamKey)!;
    expect(peek.eventIds).toEqual(['evt_0001']);
    expect(peek.centroid![0]).toBe(1);
  });
});
