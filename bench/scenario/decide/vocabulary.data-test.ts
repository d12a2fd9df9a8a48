/**
 * Guards against overfitting the decision procedure to a third-party scenario: its source must contain none of
 * that scenario's content words. Run as a bench, with the scenario's path given
 * (`ENGRAM_BENCH_SCENARIO=PATH npm run bench:vocabulary`); it is never copied into the repo. Content words
 * are its text fields' stems minus generic English (stopwords, hedges, diagnostic meta-words: the bench's own
 * bench/lib/text.ts) and minus Engram's public type vocabulary (event types, outcome labels …), which the code has
 * to name. Nothing here comes from src/: the check must not move when the product's text helpers do.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEDGES, isGenericStem, isNumberLike, STOPWORDS, stem, tokens } from '../../lib/text.js';

const HERE = join(import.meta.dirname, '..');
/** The decision procedure: everything that turns retrieved memory into a decision, in both modes. */
const DECISION_MODULES = [
  'decide/cbr.ts',
  'decide/circumstances.ts',
  'decide/precedents.ts',
  'decide/similarity.ts',
  'decider.ts',
  'llm-decider.ts',
  '../lib/llm-json.ts',
];
/**
 * Tables of generic English the judge reads text with (outcome words such as "resolved", the stopword and hedge
 * lists) and the documented operations priors: they may share generic words with any scenario, but must name
 * none of its services, proper nouns or versions.
 */
const TABLE_MODULES = ['decide/priors.ts', '../lib/text.ts', '../lib/cues.ts'];
const PRIORS_MODULE = 'decide/priors.ts';

interface SharedRound {
  service: string;
  bug_report: string;
  investigation_notes: string[];
  attempted_fix: string;
  actual_root_cause: string;
  assumption: string;
  correction: string;
  correct_keywords: string[];
  incorrect_keywords: string[];
  expected_keywords: string[];
}

function sharedScenario(): { pool_patterns: string[]; rounds: SharedRound[] } {
  const path = process.env.ENGRAM_BENCH_SCENARIO;
  if (!path || !existsSync(path)) throw new Error(`set ENGRAM_BENCH_SCENARIO to the scenario file to check against (got ${path ?? 'nothing'})`);
  return JSON.parse(readFileSync(path, 'utf8')) as { pool_patterns: string[]; rounds: SharedRound[] };
}

function scenarioTexts(): string[] {
  const s = sharedScenario();
  return [
    ...s.pool_patterns,
    ...s.rounds.flatMap((r) => [
      r.service.replace(/-/g, ' '),
      r.bug_report,
      ...r.investigation_notes,
      r.attempted_fix,
      r.actual_root_cause,
      r.assumption,
      r.correction,
      ...r.correct_keywords,
      ...r.incorrect_keywords,
      ...r.expected_keywords,
    ]),
  ];
}

/**
 * Words the code cannot avoid whatever the domain: TypeScript and library names (return, Set add/size, zod
 * schema, LLM max tokens, validation), Engram's own subject (memory), "content" (the light stemmer folds
 * "contention" onto it), and the plain-English words of denial the negation reader must know. None of them
 * names a cause, a component or a circumstance.
 */
const UNAVOIDABLE = ['return', 'throw', 'value', 'set', 'add', 'size', 'schema', 'token', 'validation', 'memory', 'content', 'unchanged', 'normal', 'steady'];

/** Engram's public type vocabulary (docs/api: event types, outcome labels, link types, fact and doc kinds). */
const ENGRAM_TYPES = `message tool_call tool_result observation decision outcome correction state_change note error feedback code_diff
  SUCCESS FAILURE PARTIAL UNKNOWN CAUSED_BY LED_TO RETRY_OF LEARNED_FROM CONTINUATION CONTRADICTED
  fact chunk preference heuristic insight event episode example procedure`.split(/\s+/);

const ENGRAM_VOCABULARY = new Set([...ENGRAM_TYPES, ...UNAVOIDABLE].flatMap((w) => w.toLowerCase().split('_')).map(stem));

function contentStems(texts: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of texts) {
    for (const tok of tokens(t)) {
      if (tok.length < 3 || STOPWORDS.has(tok) || HEDGES.has(tok) || isNumberLike(tok)) continue;
      const s = stem(tok);
      if (isGenericStem(s) || ENGRAM_VOCABULARY.has(s)) continue;
      if (!out.has(s)) out.set(s, tok);
    }
  }
  return out;
}

/** Source words: identifiers split at camelCase and underscores, string and comment words alike (import paths aside). */
function sourceStems(file: string): Set<string> {
  const src = readFileSync(join(HERE, file), 'utf8')
    .replace(/^import .*$/gm, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ');
  return new Set(tokens(src).map(stem));
}

describe('decision procedure vocabulary', () => {
  const scenarioWords = contentStems(scenarioTexts());

  it('reads a non-trivial vocabulary from the shared scenario', () => {
    expect(scenarioWords.size).toBeGreaterThan(80);
  });

  it('detects domain words where they are allowed: the priors table (positive control)', () => {
    // The documented priors use generic operations vocabulary, which the scenario shares; the check must see it.
    const used = sourceStems(PRIORS_MODULE);
    expect([...scenarioWords.keys()].filter((s) => used.has(s)).length).toBeGreaterThan(3);
  });

  it.each(DECISION_MODULES)('%s names no content word of the shared scenario', (file) => {
    const used = sourceStems(file);
    const leaked = [...scenarioWords].filter(([s]) => used.has(s)).map(([, word]) => word);
    expect(leaked).toEqual([]);
  });

  it.each(TABLE_MODULES)('%s names no service, product, proper noun or version of the shared scenario', (file) => {
    const s = sharedScenario();
    const priors = sourceStems(file);
    const serviceWords = s.rounds.flatMap((r) => r.service.split('-')).filter((w) => w !== 'service');
    // Proper nouns: capitalised words not at the start of a sentence or note ("… Redis client …").
    const properNouns = scenarioTexts().flatMap((t) => [...t.matchAll(/(?<=[a-z,]\s)([A-Z][a-zA-Z]+)/g)].map((m) => m[1]!.toLowerCase()));
    const versions = scenarioTexts().flatMap((t) => t.match(/\bv?\d+(?:\.\d+)+\b/g) ?? []);
    const named = [...new Set([...serviceWords, ...properNouns])].filter((w) => priors.has(stem(w)));
    expect(named).toEqual([]);
    const src = readFileSync(join(HERE, file), 'utf8');
    expect(versions.filter((v) => src.includes(v))).toEqual([]);
  });
});
