/**
 * Procedural memory: which learned workflows apply to a situation, how their track record moves, and how a
 * successful multi-step episode becomes a procedure.
 *
 * Ranking: score = match × successRate.
 *  - match: the lexical match of trigger and situation (cosine over their specific-term sets:
 *    |T ∩ S| / √(|T|·|S|)); when vectors for both are given, the mean of that and the clamped vector cosine.
 *  - successRate: Laplace-smoothed, (successes + 1) / (successes + failures + 2), so an untried procedure sits
 *    at 0.5 and 1/1 (0.67) ranks below 9/10 (0.83).
 * Procedures whose match is below `minMatch` are not applicable at all, however good their record.
 */
import type { Episode, Procedure, Scope } from '../core/types.js';
import { situationOf, type DescribeEvent } from './describe-episode.js';
import { parseLearnOptions, type ProcedureOptions } from './options.js';
import { clip, contentTerms, isGenericStem, jaccard, stemSet, stripLabel, surfaceTokens, tidy } from './text.js';
import { cosine } from './vector.js';

export interface ProcedureMatch {
  procedure: Procedure;
  score: number;
  match: number;
  lexical: number;
  semantic?: number | undefined;
  successRate: number;
}

export interface Situation {
  text: string;
  vector?: Float32Array | undefined;
}

export function successRate(p: Pick<Procedure, 'successCount' | 'failureCount'>): number {
  return (p.successCount + 1) / (p.successCount + p.failureCount + 2);
}

/** Ranks the procedures that apply to a situation, best first. `triggerVectors` are keyed by procedure id. */
export function findApplicable(
  situation: string | Situation,
  procedures: readonly Procedure[],
  opts: { triggerVectors?: ReadonlyMap<string, Float32Array>; options?: unknown } = {},
): ProcedureMatch[] {
  const o = parseLearnOptions('procedures', opts.options);
  const sit = typeof situation === 'string' ? { text: situation } : situation;
  const s = specific(sit.text);
  const matches: ProcedureMatch[] = [];
  for (const procedure of procedures) {
    const lexical = setCosine(specific(`${procedure.trigger} ${procedure.name}`), s);
    const tv = opts.triggerVectors?.get(procedure.id);
    const semantic = sit.vector && tv ? Math.max(0, cosine(sit.vector, tv)) : undefined;
    const match = semantic === undefined ? lexical : (lexical + semantic) / 2;
    if (match < o.minMatch) continue;
    const rate = successRate(procedure);
    matches.push({ procedure, score: round(match * rate), match: round(match), lexical: round(lexical), semantic: semantic === undefined ? undefined : round(semantic), successRate: round(rate) });
  }
  return matches
    .sort((a, b) => b.score - a.score || (b.procedure.lastUsedAt ?? 0) - (a.procedure.lastUsedAt ?? 0) || a.procedure.id.localeCompare(b.procedure.id))
    .slice(0, o.limit);
}

/** A procedure after one more use: counts, last use, and the note (most recent `maxNotes` kept). */
export function recordOutcome(
  proc: Procedure,
  success: boolean,
  notes: string | readonly string[] | undefined,
  now: number,
  options?: unknown,
): Procedure {
  const { maxNotes } = parseLearnOptions('procedures', options);
  const added = (typeof notes === 'string' ? [notes] : (notes ?? [])).map((n) => n.trim()).filter(Boolean);
  return {
    ...proc,
    successCount: proc.successCount + (success ? 1 : 0),
    failureCount: proc.failureCount + (success ? 0 : 1),
    notes: [...proc.notes, ...added].slice(-maxNotes),
    lastUsedAt: now,
    updatedAt: now,
    steps: [...proc.steps],
    preconditions: [...proc.preconditions],
    sourceEpisodeIds: [...proc.sourceEpisodeIds],
  };
}

export type ProcedureDraft = Omit<Procedure, 'id' | 'createdAt' | 'updatedAt'>;

export type LearnedProcedure =
  | { action: 'create'; draft: ProcedureDraft }
  | { action: 'reinforce'; procedureId: string; match: number; stepOverlap: number }
  | { action: 'skip'; reason: string };

type LearnEpisode = Pick<Episode, 'id' | 'outcome' | 'summary' | 'stateLabel' | 'endTs'> & Scope;

/**
 * Turns a successful multi-step episode into a procedure candidate: the trigger is the situation it started
 * from, the steps its decisions and tool calls in order (a tool call answered by an error is left out: it is
 * not part of the way that worked), consecutive repeats folded. When an existing procedure has the same trigger
 * and mostly the same steps, the episode reinforces it instead.
 */
export function learnFromEpisode(
  episode: LearnEpisode,
  events: readonly DescribeEvent[],
  opts: { existing?: readonly Procedure[]; options?: unknown } = {},
): LearnedProcedure {
  const o = parseLearnOptions('procedures', opts.options);
  if (episode.outcome !== 'SUCCESS') return { action: 'skip', reason: `outcome is ${episode.outcome}, not SUCCESS` };
  const steps = stepsOf(events).slice(0, o.maxSteps);
  if (steps.length < o.minSteps) return { action: 'skip', reason: `${steps.length} step(s), need ≥ ${o.minSteps}` };
  const trigger = clip(situationOf(events) ?? episode.summary, 240);
  const dup = duplicateOf(trigger, steps, opts.existing ?? [], o);
  if (dup) return { action: 'reinforce', ...dup };
  const scope: Scope = { tenant: episode.tenant };
  for (const k of ['userId', 'agentId', 'sessionId', 'taskId'] as const) if (episode[k] !== undefined) scope[k] = episode[k];
  return {
    action: 'create',
    draft: {
      ...scope,
      name: nameOf(trigger),
      trigger,
      steps,
      preconditions: episode.stateLabel ? [`state: ${episode.stateLabel}`] : [],
      successCount: 1,
      failureCount: 0,
      notes: [],
      lastUsedAt: episode.endTs,
      sourceEpisodeIds: [episode.id],
    },
  };
}

/** Decisions and tool calls in order, minus calls whose answer was an error, consecutive repeats folded. */
export function stepsOf(events: readonly DescribeEvent[]): string[] {
  const steps: string[] = [];
  events.forEach((e, i) => {
    if (e.type !== 'decision' && e.type !== 'tool_call') return;
    if (e.type === 'tool_call' && failed(events[i + 1])) return;
    const step = tidy(e.type === 'decision' ? stripLabel(e.content, ['decision', 'decided', 'plan']) : e.content || e.tool || '');
    if (step && steps.at(-1)?.toLowerCase() !== step.toLowerCase()) steps.push(clip(step, 200));
  });
  return steps;
}

function failed(next: DescribeEvent | undefined): boolean {
  if (!next) return false;
  if (next.type === 'error') return true;
  if (next.type !== 'tool_result') return false;
  const m = next.metadata ?? {};
  return m.ok === false || m.error !== undefined || /^\s*(error|failed|exception)\b/i.test(next.content);
}

function duplicateOf(trigger: string, steps: string[], existing: readonly Procedure[], o: ProcedureOptions): { procedureId: string; match: number; stepOverlap: number } | undefined {
  const stepStems = stemSet(steps.join(' '));
  for (const m of findApplicable(trigger, existing, { options: { ...o, minMatch: o.duplicateMatch, limit: 100 } })) {
    const stepOverlap = round(jaccard(stepStems, stemSet(m.procedure.steps.join(' '))));
    if (stepOverlap >= 0.5) return { procedureId: m.procedure.id, match: m.match, stepOverlap };
  }
  return undefined;
}

/** A short handle from the trigger's first specific words, as written. */
function nameOf(trigger: string): string {
  const surface = surfaceTokens(trigger);
  const seen = new Set<string>();
  const words: string[] = [];
  for (const t of contentTerms(trigger)) {
    if (isGenericStem(t.stem) || seen.has(t.stem)) continue;
    seen.add(t.stem);
    words.push(surface[t.index] ?? t.surface);
    if (words.length === 5) break;
  }
  return clip(words.join(' ') || trigger, 60);
}

function specific(text: string): Set<string> {
  return new Set([...stemSet(text)].filter((s) => !isGenericStem(s)));
}

function setCosine(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / Math.sqrt(a.size * b.size);
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
