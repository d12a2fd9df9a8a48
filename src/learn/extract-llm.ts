/**
 * The LLM extractor: the model reads closed episodes (outcome, situation, root cause, what was assumed and
 * corrected) and proposes heuristics with the ids of the episodes that support or contradict them. Ids it
 * invents are dropped, and every proposal passes the same usefulness filter as the heuristic extractor's, with
 * the supporting episodes' texts as evidence — a model's vague generalisation is rejected like any other.
 */
import { z } from 'zod';
import { generateObjectOr } from '../adapters/llms/generate-object.js';
import { contentHash, normalizeText } from '../core/text.js';
import type { Llm } from '../ports/llm.js';
import { episodeEvidenceText, type ExtractionEpisode, type ExtractionResult, type Extractor, type HeuristicCandidate } from './extract.js';
import { parseLearnOptions, type ExtractOptions } from './options.js';
import { clip } from './text.js';
import { assessUsefulness } from './usefulness.js';

export const llmHeuristicsSchema = z.object({
  heuristics: z
    .array(
      z.object({
        kind: z.enum(['pattern', 'counter_pattern']).describe('pattern: a recurring cause; counter_pattern: when NOT to apply one'),
        text: z.string().min(1).describe('One sentence: "When <specific condition>, check/suspect <specific cause>"'),
        supportingEpisodeIds: z.array(z.string()).describe('ids of episodes that show it'),
        contradictingEpisodeIds: z.array(z.string()).describe('ids of episodes that go against it'),
      }),
    )
    .max(10),
});
export type LlmHeuristics = z.output<typeof llmHeuristicsSchema>;

const SYSTEM = [
  'You distil reasoning heuristics from an agent’s past episodes.',
  'Only propose a heuristic that at least two episodes support, and cite their ids exactly as given.',
  'Name a concrete condition and a concrete cause or action, in the episodes’ own terms.',
  'When a correction shows a situation that looked like a known pattern but was not, propose a counter_pattern.',
  'No generic advice (e.g. "investigate thoroughly"); no hedges; return an empty list when nothing qualifies.',
].join(' ');

export interface LlmExtractorOptions {
  options?: unknown;
  usefulness?: unknown;
  /** Used when the model cannot produce valid output (LLM_OUTPUT, ADAPTER, UNAVAILABLE errors). */
  fallback?: Extractor;
  temperature?: number;
}

export class LlmExtractor implements Extractor {
  readonly name: string;
  private readonly options: ExtractOptions;

  constructor(
    private readonly llm: Llm,
    private readonly cfg: LlmExtractorOptions = {},
  ) {
    this.options = parseLearnOptions('extract', cfg.options);
    this.name = `llm:${llm.name}/${llm.model}`;
  }

  async extract(episodes: readonly ExtractionEpisode[], opts: { signal?: AbortSignal } = {}): Promise<ExtractionResult> {
    const shown = episodes.slice(-this.options.maxLlmEpisodes);
    if (shown.length < 2) return { accepted: [], rejected: [] };
    const fallback = this.cfg.fallback;
    const byId = new Map(shown.map((e) => [e.id, e]));
    return generateObjectOr(
      this.llm,
      {
        schema: llmHeuristicsSchema,
        name: 'heuristics',
        description: 'Heuristics distilled from past episodes',
        system: SYSTEM,
        prompt: `Episodes:\n${shown.map(episodeLine).join('\n')}`,
        temperature: this.cfg.temperature ?? 0,
        signal: opts.signal,
      },
      (reply): ExtractionResult => {
        const candidates = reply.heuristics.flatMap((h) => this.toCandidate(h, byId));
        return { accepted: candidates.filter((c) => c.usefulness.useful), rejected: candidates.filter((c) => !c.usefulness.useful) };
      },
      fallback && (() => fallback.extract(episodes, opts)),
    );
  }

  private toCandidate(h: LlmHeuristics['heuristics'][number], byId: Map<string, ExtractionEpisode>): HeuristicCandidate[] {
    const known = (ids: string[]) => [...new Set(ids.filter((id) => byId.has(id)))];
    const supporting = known(h.supportingEpisodeIds);
    if (supporting.length === 0) return [];
    const contradicting = known(h.contradictingEpisodeIds).filter((id) => !supporting.includes(id));
    const text = normalizeText(h.text);
    const evidence = supporting.map((id) => episodeEvidenceText(byId.get(id)!));
    const usefulness = assessUsefulness({ text, supportingEpisodeIds: supporting, evidenceTexts: evidence }, this.cfg.usefulness);
    return [
      {
        kind: h.kind,
        text,
        key: `heuristic:${contentHash('llm', text.toLowerCase())}`,
        conditionTerms: [],
        causeTerms: [],
        supportingEpisodeIds: supporting,
        contradictingEpisodeIds: contradicting,
        correctedEpisodeIds: supporting.filter((id) => byId.get(id)!.corrections.length > 0),
        usefulness,
        method: 'llm',
      },
    ];
  }
}

function episodeLine(e: ExtractionEpisode): string {
  const parts = [
    `[${e.id}] outcome=${e.outcome}`,
    `situation: ${clip(e.situation, 300)}`,
    ...(e.findings?.length ? [`found: ${clip(e.findings.join('; '), 300)}`] : []),
    ...(e.rootCause ? [`root cause: ${clip(e.rootCause, 200)}`] : []),
    ...(e.assumptions.length ? [`assumed: ${clip(e.assumptions.join('; '), 200)}`] : []),
    ...(e.corrections.length ? [`correction: ${clip(e.corrections.join('; '), 300)}`] : []),
  ];
  return parts.join(' | ');
}
