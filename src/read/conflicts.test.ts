import { describe, expect, it } from 'vitest';
import { detectConflicts, eventRevisesFact, factView, judgeConflicts, resolveConflicts, type ConflictJudge } from './conflicts.js';
import { DAY, T0, candidate, eventCandidate, factCandidate, makeDoc, makeEvent, makeFact } from './fixtures.test-support.js';

const deployFact = (over: Parameters<typeof makeFact>[0] extends infer P ? Partial<P> : never = {}) =>
  makeFact({
    text: 'The payments service deploys with blue-green.',
    subject: 'payments service',
    predicate: 'deploy strategy',
    value: 'blue-green',
    recordedAt: T0 - 10 * DAY,
    ...over,
  });

describe('detectConflicts', () => {
  it('finds two facts with the same subject and predicate but different values, fresher first', () => {
    const old = factCandidate(deployFact());
    const fresh = factCandidate(deployFact({ text: 'The payments service deploys with canary.', value: 'canary', recordedAt: T0 - DAY }));
    expect(detectConflicts([old, fresh])).toEqual([{ reason: 'same_subject_predicate', fresher: 1, older: 0 }]);
  });

  it('never reports two values of a multi-valued predicate (speaks), and honours a configured strategy', () => {
    const english = factCandidate(makeFact({ text: 'Erin speaks English.', subject: 'Erin', predicate: 'speaks', value: 'English', recordedAt: T0 - DAY }));
    const french = factCandidate(makeFact({ text: 'Erin speaks French.', subject: 'Erin', predicate: 'speaks', value: 'French', recordedAt: T0 }));
    expect(detectConflicts([english, french])).toEqual([]);
    const policy = { predicates: { speaks: 'single' as const }, defaultStrategy: 'single' as const };
    expect(detectConflicts([english, french], { policy })).toEqual([{ reason: 'same_subject_predicate', fresher: 1, older: 0 }]);
  });

  it('reads subject, predicate and value of plain-text facts with the statement patterns', () => {
    const berlin = factCandidate(makeFact({ text: 'Erin lives in Berlin.', recordedAt: T0 - DAY }));
    const munich = factCandidate(makeFact({ text: 'Erin lives in Munich.', recordedAt: T0 }));
    const dave = factCandidate(makeFact({ text: 'Dave lives in Munich.', recordedAt: T0 }));
    const vague = factCandidate(makeFact({ text: 'Erin might live in Hamburg.', recordedAt: T0 }));
    expect(factView(berlin)).toMatchObject({ subject: 'Erin', predicate: 'lives_in', value: 'Berlin' });
    expect(detectConflicts([berlin, munich, dave, vague])).toEqual([{ reason: 'same_subject_predicate', fresher: 1, older: 0 }]);
    const { notes } = resolveConflicts([berlin, munich], detectConflicts([berlin, munich]), 'prefer_fresh_episodic_else_surface_both_with_note');
    expect(notes[0]!.note).toMatch(/"Erin lives in Munich\." .* and older fact "Erin lives in Berlin\." .* disagree/);
    // Plain-text languages accumulate.
    const langs = ['Erin speaks English.', 'Erin speaks French.'].map((text, i) => factCandidate(makeFact({ text, recordedAt: T0 + i })));
    expect(detectConflicts(langs)).toEqual([]);
  });

  it('finds a newer event stating another value of a single-valued fact, without a revision cue', () => {
    const fact = factCandidate(makeFact({ text: 'Erin lives in Berlin.', recordedAt: T0 - DAY }));
    const moved = eventCandidate(makeEvent({ content: 'Erin moved to Munich.', ts: T0 }));
    const same = eventCandidate(makeEvent({ content: 'Erin lives in Berlin.', ts: T0 }));
    expect(detectConflicts([fact, moved])).toEqual([{ reason: 'fresher_episodic', fresher: 1, older: 0 }]);
    expect(detectConflicts([fact, same])).toEqual([]);
  });

  it('finds two versions of one key with different text', () => {
    const v1 = factCandidate(makeFact({ key: 'doc_42_para_7', text: 'Refunds within 30 days.', recordedAt: T0 - 5 * DAY }));
    const v2 = factCandidate(makeFact({ key: 'doc_42_para_7', text: 'Refunds within 14 days.', recordedAt: T0 }));
    expect(detectConflicts([v1, v2])).toEqual([{ reason: 'same_key', fresher: 1, older: 0 }]);
  });

  it('reads key/subject/predicate/value from metadata when the fact record is not attached', () => {
    const a = candidate(makeDoc({ text: 'Owner of auth is Ana.', ts: T0 - DAY, metadata: { subject: 'auth', predicate: 'owner', value: 'Ana' } }));
    const b = candidate(makeDoc({ text: 'Owner of auth is Bo.', ts: T0, metadata: { subject: 'Auth', predicate: 'owner', value: 'Bo' } }));
    expect(factView(a)).toMatchObject({ subject: 'auth', predicate: 'owner', value: 'Ana' });
    expect(detectConflicts([a, b])).toEqual([{ reason: 'same_subject_predicate', fresher: 1, older: 0 }]);
  });

  it('ignores facts that agree, or differ only in subject', () => {
    const a = factCandidate(deployFact());
    const same = factCandidate(deployFact({ text: 'Payments service: blue-green deploys.' }));
    const other = factCandidate(deployFact({ subject: 'search service', value: 'rolling' }));
    expect(detectConflicts([a, same, other])).toEqual([]);
  });

  it('finds a newer correction event that revises a fact on its subject', () => {
    const fact = factCandidate(deployFact());
    const ev = eventCandidate(
      makeEvent({ type: 'correction', content: 'Payments service no longer uses blue-green; it deploys canary now.', ts: T0 }),
    );
    expect(detectConflicts([fact, ev])).toEqual([{ reason: 'fresher_episodic', fresher: 1, older: 0 }]);
  });

  it('needs the event to be newer, to revise (type or cue), and to mention the subject', () => {
    const fact = factCandidate(deployFact());
    const older = eventCandidate(makeEvent({ type: 'correction', content: 'Payments service switched to canary deploys.', ts: T0 - 20 * DAY }));
    const noCue = eventCandidate(makeEvent({ content: 'Payments service deploy finished.', ts: T0 }));
    const otherSubject = eventCandidate(makeEvent({ content: 'Search service switched to canary deploys.', ts: T0 }));
    expect(detectConflicts([fact, older, noCue, otherSubject])).toEqual([]);
    expect(eventRevisesFact(noCue, factView(fact)!)).toBe(false);
  });

  it('uses structured subject/predicate/value on an event when present', () => {
    const fact = factCandidate(deployFact());
    const agrees = eventCandidate(
      makeEvent({ content: 'recorded', ts: T0, metadata: { subject: 'payments service', predicate: 'deploy strategy', value: 'blue-green' } }),
    );
    const differs = eventCandidate(
      makeEvent({ content: 'recorded', ts: T0, metadata: { subject: 'Payments Service', predicate: 'deploy strategy', value: 'canary' } }),
    );
    expect(detectConflicts([fact, agrees])).toEqual([]);
    expect(detectConflicts([fact, differs])).toEqual([{ reason: 'fresher_episodic', fresher: 1, older: 0 }]);
  });
});

describe('resolveConflicts', () => {
  const fact = factCandidate(deployFact());
  const correction = eventCandidate(makeEvent({ type: 'correction', content: 'Payments service switched to canary deploys.', ts: T0 }));

  it('default policy: prefers the fresher episodic item over a plain fact, with a note', () => {
    const items = [fact, correction];
    const { items: kept, notes } = resolveConflicts(items, detectConflicts(items), 'prefer_fresh_episodic_else_surface_both_with_note');
    expect(kept).toEqual([correction]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ reason: 'fresher_episodic', action: 'preferred', itemIds: [correction.doc.refId, fact.doc.refId], droppedIds: [fact.doc.refId] });
    expect(notes[0]!.note).toMatch(/^Newer event .* contradicts fact .*using the newer one\.$/);
  });

  it('default policy: keeps both when the event clashes with a policy, with a note', () => {
    const policy = factCandidate(deployFact({ tags: ['policy'] }));
    const items = [policy, correction];
    const { items: kept, notes } = resolveConflicts(items, detectConflicts(items), 'prefer_fresh_episodic_else_surface_both_with_note');
    expect(kept).toEqual(items);
    expect(notes[0]).toMatchObject({ action: 'surfaced_both', droppedIds: [] });
    expect(notes[0]!.note).toContain('policy');
  });

  it('default policy keeps both conflicting facts; prefer_fresh keeps the newer; surface_both never drops', () => {
    const old = factCandidate(deployFact());
    const fresh = factCandidate(deployFact({ text: 'Payments deploys canary.', value: 'canary', recordedAt: T0 }));
    const items = [old, fresh];
    const detected = detectConflicts(items);
    expect(resolveConflicts(items, detected, 'prefer_fresh_episodic_else_surface_both_with_note').items).toEqual(items);
    expect(resolveConflicts(items, detected, 'prefer_fresh').items).toEqual([fresh]);
    const both = resolveConflicts([fact, correction], detectConflicts([fact, correction]), 'surface_both_with_note');
    expect(both.items).toHaveLength(2);
    expect(both.notes[0]!.action).toBe('surfaced_both');
  });

  it('applies judge verdicts: a rejected pair gets no note, a preference overrides freshness', () => {
    const items = [fact, correction];
    const detected = detectConflicts(items);
    expect(resolveConflicts(items, detected, 'prefer_fresh', new Map([[0, { contradicts: false }]]))).toEqual({ items, notes: [] });
    const kept = resolveConflicts(items, detected, 'prefer_fresh', new Map([[0, { contradicts: true, prefer: fact.doc.refId, note: 'The runbook is authoritative.' }]]));
    expect(kept.items).toEqual([fact]);
    expect(kept.notes[0]).toMatchObject({ itemIds: [fact.doc.refId, correction.doc.refId], droppedIds: [correction.doc.refId], note: 'The runbook is authoritative.' });
  });

  it('is pure: inputs are not mutated and equal inputs give equal outputs', () => {
    const items = [fact, correction];
    const snapshot = JSON.stringify(items);
    const a = resolveConflicts(items, detectConflicts(items), 'prefer_fresh_episodic_else_surface_both_with_note');
    const b = resolveConflicts(items, detectConflicts(items), 'prefer_fresh_episodic_else_surface_both_with_note');
    expect(JSON.stringify(items)).toBe(snapshot);
    expect(a).toEqual(b);
  });
});

describe('judgeConflicts', () => {
  it('asks the judge once per detected pair with both sides, and keeps only its answers', async () => {
    const fact = factCandidate(deployFact());
    const ev = eventCandidate(makeEvent({ type: 'correction', content: 'Payments service switched to canary deploys.', ts: T0 }));
    const seen: string[] = [];
    const judge: ConflictJudge = async (input) => {
      seen.push(`${input.reason}:${input.fresher.id}>${input.older.id}`);
      return { contradicts: true, prefer: input.older.id };
    };
    const items = [fact, ev];
    const verdicts = await judgeConflicts(judge, 'how do payments deploy?', items, detectConflicts(items));
    expect(seen).toEqual([`fresher_episodic:${ev.doc.refId}>${fact.doc.refId}`]);
    expect(verdicts.get(0)).toEqual({ contradicts: true, prefer: fact.doc.refId });
    expect((await judgeConflicts(undefined, 'q', items, detectConflicts(items))).size).toBe(0);
  });
});
