/**
 * The benchmark report: per-round table, totals, and the learned facts with confidence and versions.
 * `scenarioReport` is the JSON shape (`--json`); `renderReport` prints the same content as text.
 */
import type { AgentName, FactReport } from './agents/agent.js';
import type { AgentDecision } from './decider.js';
import type { Scenario } from './format.js';
import { ratio, summarize, type AgentSummary } from './metrics.js';
import type { RoundResult, ScenarioRun } from './runner.js';

export interface ScenarioReport {
  scenario: { path: string; source: string | null; rounds: number };
  mode: ScenarioRun['mode'];
  agents: AgentName[];
  rounds: RoundResult[];
  summary: Partial<Record<AgentName, AgentSummary>>;
  facts: ScenarioRun['facts'];
}

export function scenarioReport(path: string, scenario: Scenario, run: ScenarioRun, agents: readonly AgentName[]): ScenarioReport {
  const summary: ScenarioReport['summary'] = {};
  for (const a of agents) summary[a] = summarize(scenario, run, a);
  return {
    scenario: { path, source: scenario.source ?? scenario.name ?? null, rounds: scenario.rounds.length },
    mode: run.mode,
    agents: [...agents],
    rounds: run.rounds,
    summary,
    facts: run.facts,
  };
}

const NAMES: Record<AgentName, string> = { engram: 'Engram', baseline: 'Baseline' };

export function basisLabel(d: AgentDecision): string {
  const b = d.basis;
  if (b.kind === 'prior') return `prior ${b.priorId}`;
  if (b.kind === 'llm') return `llm ${b.model}`;
  const label = b.via === 'recurrence' ? `recurrence: ${b.label}` : b.label;
  return b.agreeing > 1 ? `${label} +${b.agreeing - 1} agreeing` : label;
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

export function renderReport(r: ScenarioReport, opts: { verbose?: boolean } = {}): string {
  const out: string[] = [];
  out.push(`Scenario ${r.scenario.path} — ${r.scenario.rounds} rounds, ${r.mode} decisions`);
  out.push('');
  out.push(renderTable(r));
  out.push('');
  for (const a of r.agents) out.push(...renderSummary(NAMES[a], r.summary[a]!));
  if (opts.verbose) {
    out.push('', 'Decisions:');
    for (const round of r.rounds) {
      for (const a of r.agents) {
        const ar = round.agents[a];
        if (ar) out.push(`  R${round.round} ${NAMES[a]} ${ar.correct ? '✓' : '✗'} ${ar.decision.text}`, `      because ${ar.decision.reason}`);
      }
    }
  }
  for (const a of r.agents) {
    const facts = r.facts[a] ?? [];
    if (a === 'baseline' && facts.length === 0) continue;
    out.push('', `${NAMES[a]} facts at the end (${facts.length}):`);
    out.push(...renderFacts(facts));
  }
  return out.join('\n');
}

function renderTable(r: ScenarioReport): string {
  const header = ['Round', 'Type', 'Service', 'Taught by', ...r.agents.flatMap((a) => [NAMES[a], `${NAMES[a]} used`, 'lesson@'])];
  const rows = r.rounds.map((round) => [
    String(round.round),
    round.type,
    round.service,
    round.taughtBy.length ? round.taughtBy.map((n) => `R${n}`).join(',') : '-',
    ...r.agents.flatMap((a) => {
      const ar = round.agents[a];
      const lesson = ar?.lesson ? `${ar.lesson.rank ?? '-'}${ar.lesson.inText ? '' : ' (not in text)'}` : '';
      return ar ? [ar.correct ? '✓' : '✗', basisLabel(ar.decision), lesson] : ['-', '-', ''];
    }),
  ]);
  const totals = ['TOTAL', '', '', '', ...r.agents.flatMap((a) => [`${r.summary[a]!.correct.n}/${r.summary[a]!.correct.of}`, '', ''])];
  const all = [header, ...rows, totals];
  const widths = header.map((_, i) => Math.min(60, Math.max(...all.map((row) => (row[i] ?? '').length))));
  return all.map((row) => row.map((c, i) => pad(c.length > 60 ? `${c.slice(0, 59)}…` : c, widths[i]!)).join('  ').trimEnd()).join('\n');
}

function renderSummary(name: string, s: AgentSummary): string[] {
  const adapt = s.adaptations.length
    ? s.adaptations.map((x) => `R${x.from}→R${x.to} ${x.verdict} (corrected cause named: R${x.from} ${x.appliedBefore ? 'yes' : 'no'} → R${x.to} ${x.avoided ? 'no' : 'yes'})`).join(', ')
    : 'n/a (no CORRECTION round with a successor)';
  return [
    `${name}:`,
    `  correct decisions            ${ratio(s.correct)}`,
    `  retrieved with outcome label ${ratio(s.retrievedLabelled)}; episodes labelled ${ratio(s.episodesLabelled)}; items mentioning "outcome:" ${ratio(s.mentionOutcome)}`,
    `  pattern applications         ${ratio(s.patternApplications)} recurring-cause rounds; false positives ${ratio(s.falsePositives)} other rounds`,
    `  adaptation after correction  ${adapt}`,
    `  learnable rounds right       ${ratio(s.learnable)}; lesson retrieved @1 ${ratio(s.precedentAt1)}, @3 ${ratio(s.precedentAt3)}, its cause/correction in the text ${ratio(s.lessonInText)}`,
    `  decided by                   ${s.byPrecedent} precedent${s.byRecurrence ? ` (${s.byRecurrence} by recurrence)` : ''}, ${s.byPrior} prior, ${s.correct.of - s.byPrecedent - s.byPrior} llm`,
  ];
}

/** The learned facts, one line per version: ● live, ○ superseded, ✕ retired (a closing version, which holds nowhere). */
export function renderFacts(facts: readonly FactReport[]): string[] {
  if (facts.length === 0) return ['  (none)'];
  const out: string[] = [];
  for (const f of facts) {
    for (const v of f.versions) {
      // A retired rule's closing version is live (nothing supersedes it) but holds nowhere: shown as retired.
      const mark = v.retired !== undefined ? '✕' : v.live ? '●' : '○';
      const note = v.retired !== undefined ? `  (retired: ${v.retired.replace(/_/g, ' ')})` : v.live ? '' : '  (superseded)';
      out.push(
        `  ${mark} ${f.kind} ${f.key} v${v.version}  confidence ${v.confidence.toFixed(2)}  +${v.supportCount}/−${v.contradictCount}${note}`,
        `      ${v.text}`,
      );
    }
  }
  return out;
}
