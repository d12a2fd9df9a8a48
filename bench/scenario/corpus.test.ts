/**
 * The project's scenario corpus (bench/scenario/corpus/{tune,eval}): every file parses, the two halves are
 * disjoint and balanced across domains, and every scenario exercises what the learning claims — a recurring
 * cause, a red herring, a correction, and rounds an earlier round taught. `tune2` is further tuning material in
 * other domains (kept apart so the established tune figures stay comparable); `tune3` is more of it, mostly in the
 * domains the evaluation half scores worst on, plus one domain no other set uses; `tune4` is six more, written before
any tuning on them, with topics and wordings no other set has. All obey the same rules.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusFiles, totalOf, type CorpusRow } from './corpus.js';
import { loadScenarioFile, type Scenario } from './format.js';
import { teachingRounds } from './learnable.js';

const CORPUS = join(import.meta.dirname, 'corpus');

async function half(name: 'tune' | 'eval' | 'tune2' | 'tune3' | 'tune4'): Promise<Array<{ file: string; s: Scenario }>> {
  return Promise.all(corpusFiles(join(CORPUS, name)).map(async (file) => ({ file, s: await loadScenarioFile(file) })));
}

function domainOf(s: Scenario): string {
  return /^\[([^\]]+)\]/.exec(s.description ?? '')?.[1] ?? '';
}

describe('scenario corpus', () => {
  it('has ≥ 20 scenarios over ≥ 5 domains, split into disjoint halves with every domain in both', async () => {
    const tune = await half('tune');
    const evaluation = await half('eval');
    expect(tune.length + evaluation.length).toBeGreaterThanOrEqual(20);
    const names = (h: typeof tune) => h.map((x) => x.s.name);
    expect(names(tune).filter((n) => names(evaluation).includes(n))).toEqual([]);
    const domains = new Set([...tune, ...evaluation].map((x) => domainOf(x.s)));
    expect(domains.size).toBeGreaterThanOrEqual(5);
    expect(domains.has('')).toBe(false);
    for (const d of domains) {
      expect(tune.some((x) => domainOf(x.s) === d)).toBe(true);
      expect(evaluation.some((x) => domainOf(x.s) === d)).toBe(true);
    }
  });

  it('the extra tuning material shares no scenario with either half and adds domains of its own', async () => {
    const extra = await half('tune2');
    expect(extra.length).toBeGreaterThanOrEqual(4);
    const others = [...(await half('tune')), ...(await half('eval'))];
    expect(extra.filter((x) => others.some((o) => o.s.name === x.s.name))).toEqual([]);
    const known = new Set(others.map((o) => domainOf(o.s)));
    const domains = new Set(extra.map((x) => domainOf(x.s)));
    expect(domains.has('')).toBe(false);
    expect([...domains].filter((d) => !known.has(d)).length).toBeGreaterThanOrEqual(4);
  });

  it('the third tuning set shares no scenario with the others, covers the weaker domains and adds one of its own', async () => {
    const extra = await half('tune3');
    expect(extra.length).toBeGreaterThanOrEqual(6);
    const others = [...(await half('tune')), ...(await half('eval')), ...(await half('tune2'))];
    expect(extra.filter((x) => others.some((o) => o.s.name === x.s.name))).toEqual([]);
    const count = (d: string) => extra.filter((x) => domainOf(x.s) === d).length;
    expect(count('personal-assistant preferences and plans')).toBeGreaterThanOrEqual(2);
    expect(count('data-pipeline incidents')).toBeGreaterThanOrEqual(2);
    expect(count('customer-support escalations')).toBeGreaterThanOrEqual(1);
    const known = new Set(others.map((o) => domainOf(o.s)));
    expect(extra.filter((x) => !known.has(domainOf(x.s))).length).toBeGreaterThanOrEqual(1);
  });

  it('the fourth tuning set shares no scenario, topic or bug report with the others and spans the issue\'s domains and a new one', async () => {
    const extra = await half('tune4');
    expect(extra.length).toBeGreaterThanOrEqual(6);
    const others = [...(await half('tune')), ...(await half('eval')), ...(await half('tune2')), ...(await half('tune3'))];
    expect(extra.filter((x) => others.some((o) => o.s.name === x.s.name))).toEqual([]);
    // No report or root cause is copied from another set.
    const texts = new Set(others.flatMap((o) => o.s.rounds.flatMap((r) => [r.bug_report, r.actual_root_cause])));
    expect(extra.flatMap((x) => x.s.rounds.filter((r) => texts.has(r.bug_report) || texts.has(r.actual_root_cause)).map((r) => `${x.s.name} ${r.round_num}`))).toEqual([]);
    const domains = new Set(extra.map((x) => domainOf(x.s)));
    for (const d of ['security alerts', 'coding-agent build and test failures', 'customer-support escalations', 'data-pipeline incidents', 'personal-assistant preferences and plans']) {
      expect(domains.has(d), d).toBe(true);
    }
    const known = new Set(others.map((o) => domainOf(o.s)));
    expect(extra.filter((x) => !known.has(domainOf(x.s))).length).toBeGreaterThanOrEqual(1);
    // Six rounds each name their teachers (all but round 1, the first red herring and the first correction), and both shapes of the other sets are used (a second correction, a red herring tested again).
    for (const { file, s } of extra) expect(s.rounds.filter((r) => (r.taught_by ?? []).length > 0).length, file).toBeGreaterThanOrEqual(6);
    const shapes = new Set(extra.map((x) => x.s.rounds.filter((r) => r.round_label === 'CORRECTION').length));
    expect(shapes).toEqual(new Set([1, 2]));
  });

  it('every scenario has a red herring, a correction and at least half its later rounds taught by earlier ones', async () => {
    for (const { file, s } of [...(await half('tune')), ...(await half('eval')), ...(await half('tune2')), ...(await half('tune3')), ...(await half('tune4'))]) {
      const labels = s.rounds.map((r) => r.round_label);
      expect(labels, file).toContain('RED HERRING');
      expect(labels, file).toContain('CORRECTION');
      expect(s.rounds.some((r) => r.correction !== ''), file).toBe(true);
      const learnable = s.rounds.filter((r) => teachingRounds(s, r).length > 0);
      expect(learnable.length, file).toBeGreaterThanOrEqual(Math.ceil((s.rounds.length - 1) / 2));
      // A red herring is never answered by the recurring cause it resembles: it names an incorrect keyword.
      for (const r of s.rounds.filter((x) => x.round_label === 'RED HERRING')) expect(r.incorrect_keywords.length, file).toBeGreaterThan(0);
    }
  });
});

describe('corpus totals', () => {
  it('adds up each ratio over the scenarios', () => {
    const row = (n: number): CorpusRow => ({
      scenario: `s${n}`,
      rounds: 9,
      correct: { engram: { n, of: 9 }, baseline: { n: 1, of: 9 } },
      learnable: { engram: { n: 2, of: 6 }, baseline: { n: 0, of: 6 } },
      precedentAt1: { engram: { n: 1, of: 6 }, baseline: { n: 3, of: 6 } },
      bases: { precedent: 4, recurrence: 1, prior: 4, llm: 0 },
    });
    const t = totalOf([row(5), row(7)]);
    expect(t).toMatchObject({ rounds: 18, correct: { engram: { n: 12, of: 18 } }, learnable: { baseline: { n: 0, of: 12 } }, precedentAt1: { baseline: { n: 6, of: 12 } } });
    expect(t.bases).toEqual({ precedent: 8, recurrence: 2, prior: 8, llm: 0 });
  });
});
