import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../core/tokens.js';
import { MIN_TRUNCATED_TOKENS, fitBudget, truncateWithMeaning } from './budget.js';
import { candidate, eventCandidate, makeDoc, makeEvent } from './fixtures.test-support.js';
import { itemBody, renderText } from './render.js';
import { resolveSections } from './sections.js';
import type { Candidate, ConflictNote } from './types.js';

const tokens = createTokenCounter('cl100k_base');
const { specs } = resolveSections(['episodic_recent', 'semantic_policy', 'semantic'], { taskId: 'task_1' });
const render = { provenanceInline: true };

function group(items: Candidate[]) {
  return specs.map((spec) => ({
    spec,
    items: items.filter((c) => specs.find((s) => s.accepts(c)) === spec).sort((a, b) => b.scores.final - a.scores.final),
  }));
}

const LOREM =
  'rollback payments deploy canary approval on-call runbook incident pool exhaustion redis latency the a of to ' +
  'ERR_PG_53300 café 東京 naïve 🚀 emoji données über';
const wordArb = fc.constantFrom(...LOREM.split(' '));
const textArb = fc.oneof(
  fc.array(wordArb, { minLength: 1, maxLength: 80 }).map((w) => w.join(' ')),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 120 }),
);
const itemArb = fc.record({
  text: textArb,
  window: fc.boolean(),
  policy: fc.boolean(),
  final: fc.double({ min: 0, max: 2, noNaN: true }),
  source: fc.option(fc.constantFrom('runbook.md', 'wiki.md'), { nil: undefined }),
});

type RawItem = typeof itemArb extends fc.Arbitrary<infer T> ? T : never;

function build(raw: RawItem, i: number): Candidate {
  if (raw.window) return eventCandidate(makeEvent({ id: `evt_${i}`, content: raw.text, ts: 1_700_000_000_000 + i * 1000 }), { final: raw.final });
  return candidate(makeDoc({ refId: `fct_${i}`, text: raw.text, source: raw.source, tags: raw.policy ? ['policy'] : [] }), { final: raw.final });
}

describe('fitBudget', () => {
  it('never lets the rendered text exceed the budget (property)', () => {
    fc.assert(
      fc.property(fc.array(itemArb, { maxLength: 14 }), fc.integer({ min: 0, max: 400 }), fc.boolean(), (raws, budget, withNote) => {
        const items = raws.map(build);
        const notes: ConflictNote[] =
          withNote && items.length > 1
            ? [{ reason: 'same_key', action: 'surfaced_both', itemIds: [items[0]!.doc.refId, items[1]!.doc.refId], droppedIds: [], note: 'These two disagree; prefer the newer.' }]
            : [];
        const r = fitBudget({ sections: group(items), notes, budget, tokens, render });
        expect(tokens.count(r.text)).toBeLessThanOrEqual(budget);
        expect(r.used).toBe(tokens.count(r.text));
        // What is returned is exactly what was counted.
        expect(r.text).toBe(renderText(r.sections, r.notes.map((n) => n.note), render));
        const chosen = r.sections.flatMap((s) => s.entries);
        expect(chosen.length + r.dropped).toBe(items.length);
        for (const e of chosen) {
          const full = itemBody(e.candidate);
          if (e.truncated) {
            expect(e.body.endsWith('…')).toBe(true);
            expect(full.startsWith(e.body.slice(0, -1).trimEnd())).toBe(true);
            expect(tokens.count(e.body)).toBeGreaterThanOrEqual(MIN_TRUNCATED_TOKENS);
          } else {
            expect(e.body).toBe(full);
          }
        }
        const ids = new Set(chosen.map((e) => e.candidate.doc.refId));
        for (const n of r.notes) expect(n.itemIds.some((id) => ids.has(id))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('includes everything untouched when the budget is ample', () => {
    const items = [0, 1, 2, 3].map((i) => build({ text: `memory number ${i}`, window: i % 2 === 0, policy: i === 1, final: i, source: undefined }, i));
    const r = fitBudget({ sections: group(items), notes: [], budget: 10_000, tokens, render });
    expect(r.dropped).toBe(0);
    expect(r.sections.flatMap((s) => s.entries).every((e) => !e.truncated)).toBe(true);
  });

  it('fills by section priority before score', () => {
    const recent = eventCandidate(makeEvent({ content: 'Deploy of payments failed at step 3.' }), { final: 0.1 });
    const memory = candidate(makeDoc({ text: 'Payments deploys need a canary first.' }), { final: 5 });
    const one = tokens.count(renderText([{ spec: specs[0]!, entries: [{ candidate: recent, body: itemBody(recent), truncated: false }] }], [], render));
    const r = fitBudget({ sections: group([recent, memory]), notes: [], budget: one, tokens, render });
    expect(r.sections[0]!.entries.map((e) => e.candidate)).toEqual([recent]);
    expect(r.dropped).toBe(1);
  });

  it('within a section, keeps the higher score and lets a smaller item fill the gap', () => {
    const big = candidate(makeDoc({ text: 'alpha '.repeat(60).trim() }), { final: 0.5 });
    const best = candidate(makeDoc({ text: 'Best memory.' }), { final: 0.9 });
    const small = candidate(makeDoc({ text: 'Small one.' }), { final: 0.1 });
    const both = renderText(
      [{ spec: specs[2]!, entries: [best, small].map((c) => ({ candidate: c, body: itemBody(c), truncated: false })) }],
      [],
      render,
    );
    const r = fitBudget({ sections: group([big, best, small]), notes: [], budget: tokens.count(both), tokens, render });
    const kept = r.sections.flatMap((s) => s.entries).map((e) => e.candidate);
    expect(kept).toEqual([best, small]);
  });

  it('truncates the last item only when most of it survives', () => {
    const long = candidate(makeDoc({ text: Array.from({ length: 40 }, (_, i) => `Step ${i} completed.`).join(' ') }), { final: 1 });
    const bodyTokens = tokens.count(itemBody(long));
    const fitting = fitBudget({ sections: group([long]), notes: [], budget: Math.ceil(bodyTokens * 0.8), tokens, render });
    const entry = fitting.sections.flatMap((s) => s.entries)[0]!;
    expect(entry.truncated).toBe(true);
    expect(entry.body).toMatch(/completed\.…$/);
    const tooSmall = fitBudget({ sections: group([long]), notes: [], budget: Math.floor(bodyTokens * 0.3), tokens, render });
    expect(tooSmall.sections.flatMap((s) => s.entries)).toEqual([]);
    expect(tooSmall.dropped).toBe(1);
  });

  it('adds a conflict note with its item and skips notes about absent items', () => {
    const a = candidate(makeDoc({ refId: 'fct_a', text: 'Deploys use canary.' }), { final: 1 });
    const note = (ids: string[]): ConflictNote => ({ reason: 'same_key', action: 'surfaced_both', itemIds: ids, droppedIds: [], note: `about ${ids.join(',')}` });
    const r = fitBudget({ sections: group([a]), notes: [note(['fct_a', 'fct_b']), note(['fct_x'])], budget: 500, tokens, render });
    expect(r.notes.map((n) => n.note)).toEqual(['about fct_a,fct_b']);
    expect(r.text).toContain('## Conflicts\n<memory>\n- about fct_a,fct_b\n</memory>');
  });
});

describe('truncateWithMeaning', () => {
  it('cuts at a sentence boundary and refuses to keep less than half', () => {
    const text =
      'The first sentence explains what happened during the deploy. The second sentence explains the rollback that followed. ' +
      'A third sentence closes the paragraph.';
    const total = tokens.count(text);
    const cut = truncateWithMeaning(text, total - 4, tokens)!;
    expect(cut).toBe('The first sentence explains what happened during the deploy. The second sentence explains the rollback that followed.…');
    expect(truncateWithMeaning(text, Math.floor(total / 3), tokens)).toBeUndefined();
  });

  it('never splits a multi-byte character', () => {
    const text = '東京 '.repeat(40) + '🚀'.repeat(30);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: tokens.count(text) }), (max) => {
        const cut = truncateWithMeaning(text, max, tokens);
        if (cut !== undefined) {
          expect(cut.isWellFormed()).toBe(true);
          expect(cut).not.toContain('\uFFFD');
          expect(tokens.count(cut)).toBeLessThanOrEqual(max);
        }
      }),
    );
  });
});
