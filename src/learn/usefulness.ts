/**
 * The usefulness filter for generalised facts and heuristics. Confidence says whether a fact is true; this
 * says whether it is worth telling an agent. A statement passes only when every check passes:
 *
 *  - structure: it names a condition and what to do or what causes what — an if/when/after/under … clause
 *    followed by a main clause ("When X, check Y"), an imperative with a condition ("Check Y when X"), or a
 *    cause pattern ("X is caused by Y", "X because Y", "X is more likely Y than Z", "Y, not Z");
 *  - specific: at least `minSpecificTerms` distinct content words that are neither stopwords nor the generic
 *    vocabulary of diagnosis ("issue", "root cause", "symptom" …) nor hedges ("often", "may" …);
 *  - hedged: hedges make up at most `maxHedgeShare` of its content words;
 *  - support: it rests on at least `minSupport` distinct episodes;
 *  - length: between `minWords` and `maxWords` words;
 *  - not a restatement: its word overlap (Jaccard over specific stems) with any single evidence text stays
 *    below `maxRestatement` — a generalisation must generalise;
 *  - grounded: at least `minGrounding` of its specific terms occur in the evidence texts (it speaks about
 *    what the episodes saw, not about something the extractor made up).
 * For a rule ("When <condition>, check|suspect <cause>, not <ruled out>"; "Check <cause> when <condition>"):
 *  - cue: its condition names something that tells reports apart. A listed condition ("when a report mentions
 *    A, B and C") fires on each word, so every word must be diagnostic: not a reporting verb ("show",
 *    "returning", "started"), nor a word every incident report has ("error", "failing"), nor a word of state
 *    or amount ("normal", "many", "large") — NON_DIAGNOSTIC_TERMS. A condition in prose needs one such word;
 *  - not circular: what it says to check is not just what its condition already names ("when a report
 *    mentions the pool, check the pool") — unless it contrasts it with what it is not ("…, suspect the
 *    release, not the cache" is a claim);
 *  - not contradictory: what it suspects is not what it rules out ("suspect the disk, not disk full").
 * The evidence checks run only when evidence texts are given. `score` (0..1) is the mean of the per-check scores,
 * for ranking; `useful` is the verdict.
 */
import { parseLearnOptions, type UsefulnessOptions } from './options.js';
import { contentTerms, HEDGES, isGenericStem, isNumberLike, jaccard, stem, stemSet, tokens } from './text.js';

export interface UsefulnessInput {
  text: string;
  supportingEpisodeIds: readonly string[];
  /** Texts of the supporting episodes (summaries, reports, root causes). */
  evidenceTexts?: readonly string[] | undefined;
}

export type UsefulnessCheck =
  | 'structure'
  | 'specific'
  | 'hedged'
  | 'support'
  | 'length'
  | 'cue'
  | 'circular'
  | 'contradictory'
  | 'restatement'
  | 'grounded';

export interface UsefulnessVerdict {
  useful: boolean;
  score: number;
  /** One line per failed check, e.g. `specific: 1 specific term (need ≥ 3)`. Empty when useful. */
  reasons: string[];
  checks: Record<UsefulnessCheck, boolean>;
  /** The specific terms found (surface forms), for display and debugging. */
  specificTerms: string[];
}

const CONDITION = String.raw`(?:if|when|whenever|after|once|while|during|under|before|unless|as soon as)`;
const ACTION = String.raw`(?:check|suspect|investigate|inspect|look|verify|confirm|prefer|avoid|use|try|raise|increase|lower|reduce|roll|revert|restart|scale|disable|enable|escalate|compare|measure|test|start|rule)`;
const STRUCTURE_PATTERNS: readonly RegExp[] = [
  // "When X, check Y" / "If X then Y"
  new RegExp(String.raw`^\s*${CONDITION}\b[^,;:]{3,},\s*\S+`, 'i'),
  new RegExp(String.raw`\b${CONDITION}\b.+\bthen\b\s+\S+`, 'i'),
  // "Check Y when X"
  new RegExp(String.raw`^\s*${ACTION}\w*\b.+\b${CONDITION}\b\s+\S+`, 'i'),
  // cause patterns
  /\b(caused by|because|due to|results? from|stems? from|comes? from|is (?:a|the) (?:\w+ )?(?:root )?cause|more likely|rather than|instead of|points? to|indicates?)\b/i,
  /\S+.*,\s*not\s+\S+/i,
];

/**
 * Words any incident report may contain whatever its cause: reporting and progress verbs, the ubiquitous
 * symptom words, who is affected ("users"), and words of state, amount or time. Generic English; a
 * condition made of them fires on any report. Compared by stem.
 */
export const NON_DIAGNOSTIC_TERMS: ReadonlySet<string> = new Set(
  `show shows showed shown showing see sees seeing look looks looking report reports reported reporting notice noticed
  find finds found return returns returned returning start starts started starting stop stops stopped stopping begin
  begins began beginning happen happens happened happening occur occurs occurred occurring get gets give gives gave
  take takes took keep keeps kept remain remains remained become becomes became use uses used using come comes came
  throw throws threw thrown throwing seem seems appear appears try tries tried trying work works worked
  error errors erroring fail fails failed failing failure failures broken
  many much every all some several lot lots little large small big high higher low lower normal usual unusual fine
  healthy okay ok good bad fast slow slower quick sudden suddenly immediately today yesterday now hour hours minute
  minutes day days week weeks instead also even still user users customer customers people someone`
    .split(/\s+/)
    .map(stem),
);

export function isDiagnosticStem(s: string): boolean {
  return !NON_DIAGNOSTIC_TERMS.has(s) && !isGenericStem(s) && !isNumberLike(s);
}

export interface RuleParts {
  /** The "when …" clause, without "a report mentions". */
  condition: string;
  /** The condition is a list of cue words ("a report mentions A, B and C"). */
  listed: boolean;
  /** What it says to check or suspect. */
  cause?: string | undefined;
  /** What it says it is not. */
  ruledOut?: string | undefined;
}

const COND_WORD = String.raw`(?:if|when|whenever|once|while|during|under|after|before|unless)`;
/** "When X, check Y": the condition runs to the last comma before an action ("a report mentions A, B and C"). */
const RULE_HEAD_ACTION = new RegExp(String.raw`^\s*${COND_WORD}\s+(.+),\s*(?:then\s+)?(${ACTION}\w*\b.+)$`, 'i');
const RULE_HEAD = new RegExp(String.raw`^\s*${COND_WORD}\s+(.+?),\s*(?:then\s+)?(.+)$`, 'i');
const RULE_TAIL = new RegExp(String.raw`^\s*(${ACTION}\w*)\s+(.+?)\s+${COND_WORD}\s+(.+)$`, 'i');
const LISTED = /^(?:(?:a|the|any)\s+)?reports?\s+mentions?\s+/i;
const ACTION_LEAD = new RegExp(String.raw`^${ACTION}\w*(?:\s+(?:for|at|into))?\s+(.+)$`, 'i');

/** Reads "When X, check Y, not Z (…)" and "Check Y when X"; undefined for any other shape. */
export function ruleParts(text: string): RuleParts | undefined {
  const body = text.replace(/\s*\([^)]*\)\s*\.?\s*$/, '').replace(/[.\s]+$/, '');
  let condition: string;
  let consequence: string | undefined;
  const head = RULE_HEAD_ACTION.exec(body) ?? RULE_HEAD.exec(body);
  const tail = head ? undefined : RULE_TAIL.exec(body);
  if (head) {
    condition = head[1]!;
    consequence = ACTION_LEAD.exec(head[2]!)?.[1];
  } else if (tail) {
    condition = tail[3]!;
    consequence = tail[2]!;
  } else return undefined;
  const listed = LISTED.test(condition);
  condition = condition.replace(LISTED, '');
  if (consequence === undefined) return { condition, listed };
  const neg = /^(.+?),?\s+(?:and\s+)?not\s+(.+)$/i.exec(consequence);
  return { condition, listed, cause: neg ? neg[1]! : consequence, ruledOut: neg?.[2] };
}

function specificStemsOf(text: string): string[] {
  return [...new Set(contentTerms(text).filter((t) => !isGenericStem(t.stem) && !isNumberLike(t.stem)).map((t) => t.stem))];
}

type CheckResult = { check: UsefulnessCheck; ok: boolean; score: number; why: string };

function ruleChecks(text: string): CheckResult[] {
  const rule = ruleParts(text);
  if (!rule) return [];
  const cond = specificStemsOf(rule.condition);
  const vague = cond.filter((s) => !isDiagnosticStem(s));
  const diagnostic = cond.length - vague.length;
  const cueOk = rule.listed ? cond.length > 0 && vague.length === 0 : diagnostic > 0;
  const out: CheckResult[] = [
    {
      check: 'cue',
      ok: cueOk,
      score: cond.length === 0 ? 0 : diagnostic / cond.length,
      why: vague.length > 0 ? `its condition rests on non-diagnostic words (${vague.join(', ')})` : 'its condition names no diagnostic word',
    },
  ];
  if (rule.cause !== undefined) {
    const cause = specificStemsOf(rule.cause);
    const condSet = new Set(cond);
    // A contrast ("suspect the release, not the cache") says something even when it names its condition.
    const circular = cause.length === 0 || (rule.ruledOut === undefined && cause.every((s) => condSet.has(s)));
    out.push({ check: 'circular', ok: !circular, score: circular ? 0 : 1, why: 'what it says to check only repeats its condition' });
    if (rule.ruledOut !== undefined) {
      const ruled = new Set(specificStemsOf(rule.ruledOut));
      const contradictory = cause.length > 0 && cause.every((s) => ruled.has(s));
      out.push({ check: 'contradictory', ok: !contradictory, score: contradictory ? 0 : 1, why: 'what it suspects is what it rules out' });
    }
  }
  return out;
}

export function assessUsefulness(input: UsefulnessInput, options?: unknown): UsefulnessVerdict {
  const opts = parseLearnOptions('usefulness', options);
  const terms = contentTerms(input.text);
  const words = tokens(input.text).length;
  const specific = new Map<string, string>();
  for (const t of terms) if (!isGenericStem(t.stem) && !isNumberLike(t.stem)) specific.set(t.stem, specific.get(t.stem) ?? t.surface);
  const hedges = tokens(input.text).filter((w) => HEDGES.has(w)).length;
  const hedgeShare = terms.length === 0 ? 1 : hedges / terms.length;
  const support = new Set(input.supportingEpisodeIds).size;

  const structure = STRUCTURE_PATTERNS.some((re) => re.test(input.text));
  const results: Array<{ check: UsefulnessCheck; ok: boolean; score: number; why: string }> = [
    { check: 'structure', ok: structure, score: structure ? 1 : 0, why: 'names no condition → action or cause pattern' },
    {
      check: 'specific',
      ok: specific.size >= opts.minSpecificTerms,
      score: Math.min(1, specific.size / (2 * opts.minSpecificTerms)),
      why: `${specific.size} specific term(s) (need ≥ ${opts.minSpecificTerms})`,
    },
    {
      check: 'hedged',
      ok: hedgeShare <= opts.maxHedgeShare,
      score: Math.max(0, 1 - hedgeShare / Math.max(opts.maxHedgeShare, 1e-9) / 2),
      why: `${Math.round(hedgeShare * 100)}% hedge words (max ${Math.round(opts.maxHedgeShare * 100)}%)`,
    },
    {
      check: 'support',
      ok: support >= opts.minSupport,
      score: Math.min(1, support / (opts.minSupport + 1)),
      why: `${support} supporting episode(s) (need ≥ ${opts.minSupport})`,
    },
    {
      check: 'length',
      ok: words >= opts.minWords && words <= opts.maxWords,
      score: words >= opts.minWords && words <= opts.maxWords ? 1 : 0,
      why: `${words} words (allowed ${opts.minWords}–${opts.maxWords})`,
    },
    ...ruleChecks(input.text),
    ...evidenceChecks(input, [...specific.keys()], opts),
  ];
  const failed = results.filter((r) => !r.ok);
  const checks = Object.fromEntries(results.map((r) => [r.check, r.ok])) as Record<UsefulnessCheck, boolean>;
  for (const c of ['cue', 'circular', 'contradictory', 'restatement', 'grounded'] as const) checks[c] ??= true;
  return {
    useful: failed.length === 0,
    score: Math.round((results.reduce((s, r) => s + r.score, 0) / results.length) * 1000) / 1000,
    reasons: failed.map((r) => `${r.check}: ${r.why}`),
    checks,
    specificTerms: [...specific.values()],
  };
}

function evidenceChecks(
  input: UsefulnessInput,
  specificStems: string[],
  opts: UsefulnessOptions,
): CheckResult[] {
  const texts = input.evidenceTexts ?? [];
  if (texts.length === 0) return [];
  // Compared on specific stems only: shared filler ("root cause", "check") says nothing about restating.
  const specificOf = (t: string) => new Set([...stemSet(t)].filter((s) => !isGenericStem(s)));
  const own = specificOf(input.text);
  const overlaps = texts.map((t) => jaccard(own, specificOf(t)));
  const maxOverlap = Math.max(...overlaps);
  const seen = new Set<string>();
  for (const t of texts) for (const s of stemSet(t)) seen.add(s);
  const grounded = specificStems.length === 0 ? 0 : specificStems.filter((s) => seen.has(s)).length / specificStems.length;
  return [
    {
      check: 'restatement',
      ok: maxOverlap < opts.maxRestatement,
      score: maxOverlap < opts.maxRestatement ? 1 : 0,
      why: `overlaps one episode's text at ${maxOverlap.toFixed(2)} (max ${opts.maxRestatement})`,
    },
    {
      check: 'grounded',
      ok: grounded >= opts.minGrounding,
      score: Math.min(1, grounded / Math.max(opts.minGrounding, 1e-9)),
      why: `${Math.round(grounded * 100)}% of its specific terms occur in the evidence (need ${Math.round(opts.minGrounding * 100)}%)`,
    },
  ];
}
