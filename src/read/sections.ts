/**
 * Context sections. `merge_policy.priority` names them in budget order; each name resolves to a spec that
 * says which candidates belong to it, how to title it and how to order it in the text. An item lands in the
 * first section (by priority) that accepts it.
 *
 * To add a section later (episodes with outcomes, facts with confidence, a causal chain, a counter-example
 * slot) add a resolver to SECTION_RESOLVERS: the budget and renderer only ever see `SectionSpec`s.
 */
import { CONTEXT_HEAD_TOP_K } from './pool.js';
import type { Candidate } from './types.js';

export interface SectionContext {
  taskId?: string | null | undefined;
}

export interface SectionSpec {
  name: string;
  title: string;
  /** How items appear in the text; the budget always fills by score. */
  order: 'chronological' | 'score';
  accepts(c: Candidate): boolean;
}

type Resolver = (name: string, ctx: SectionContext) => SectionSpec | undefined;

/** The counter-example's own section (appended by buildContext when there is one; see counter.ts). */
export const COUNTER_EXAMPLE_SECTION: SectionSpec = {
  name: 'counter_example',
  title: 'Counter-example (went the other way)',
  order: 'score',
  accepts: (c) => c.role === 'counter_example',
};

const isCounter = (c: Candidate) => c.role === 'counter_example';

const SECTION_RESOLVERS: readonly Resolver[] = [
  (name, ctx) =>
    name === 'episodic_recent'
      ? {
          name,
          title: ctx.taskId ? `Recent events (task ${ctx.taskId})` : 'Recent events',
          order: 'chronological',
          accepts: (c) => c.origin === 'window',
        }
      : undefined,
  (name) =>
    name === 'semantic' ? { name, title: 'Relevant memory', order: 'score', accepts: (c) => c.origin === 'semantic' && !isCounter(c) } : undefined,
  (name) => {
    const tag = /^semantic_(.+)$/.exec(name)?.[1];
    return tag === undefined
      ? undefined
      : { name, title: `Relevant memory: ${tag}`, order: 'score', accepts: (c) => c.origin === 'semantic' && !isCounter(c) && c.doc.tags.includes(tag) };
  },
];

/** Catch-alls appended after the configured priority, so no retrieved item is orphaned by a narrow list. */
const FALLBACK_SECTIONS = ['episodic_recent', 'semantic'] as const;

/** Resolves the priority list into specs; unknown names are reported, not fatal (config may be newer). */
export function resolveSections(priority: readonly string[], ctx: SectionContext): { specs: SectionSpec[]; unknown: string[] } {
  const names = [...priority, ...FALLBACK_SECTIONS.filter((f) => !priority.includes(f))];
  const specs: SectionSpec[] = [];
  const unknown: string[] = [];
  for (const name of new Set(names)) {
    const spec = SECTION_RESOLVERS.map((r) => r(name, ctx)).find((s) => s !== undefined);
    if (spec) specs.push(spec);
    else unknown.push(name);
  }
  return { specs, unknown };
}

/** Groups candidates by their first accepting section, keeping input order within a group. */
export function assignSections(items: readonly Candidate[], specs: readonly SectionSpec[]): Map<string, Candidate[]> {
  const groups = new Map<string, Candidate[]>(specs.map((s) => [s.name, []]));
  for (const c of items) {
    const spec = specs.find((s) => s.accepts(c));
    if (spec) groups.get(spec.name)!.push(c);
  }
  return groups;
}

const byFinal = (a: Candidate, b: Candidate) => b.scores.final - a.scores.final;
/** Events the session spread moved behind (session-spread.ts) after the rest, each part by score. */
const byStanding = (a: Candidate, b: Candidate) => Number(a.behind === true) - Number(b.behind === true) || byFinal(a, b);
/** MMR's picks past the first CONTEXT_HEAD_TOP_K: a larger top_k adds them, and they keep the order they were picked in. */
const pastHead = (c: Candidate) => c.pick !== undefined && c.pick >= CONTEXT_HEAD_TOP_K;
/**
 * A section's order: the first CONTEXT_HEAD_TOP_K picks by standing, then the later picks in the order MMR chose
 * them, so that a larger top_k only adds after what a smaller one shows (MMR is greedy: its first picks do not
 * depend on how many it makes).
 */
export const bySectionPlace = (a: Candidate, b: Candidate): number =>
  Number(pastHead(a)) - Number(pastHead(b)) || (pastHead(a) && pastHead(b) ? a.pick! - b.pick! : byStanding(a, b));
