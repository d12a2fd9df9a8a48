/**
 * The LLM summarizer: the same `EpisodeDescription` as the heuristic one, written by a model through
 * `generateObject` (JSON Schema shown natively where the provider can, zod-validated, one re-ask).
 *
 * Ground truth the caller recorded beats the model: an explicit `metadata.outcome` / `metadata.root_cause`
 * overrides what the model says, and importance stays the deterministic value. When the model fails (bad output
 * twice, provider down) and a `fallback` summarizer is given, its description is returned instead.
 */
import { z } from 'zod';
import { generateObjectOr } from '../adapters/llms/generate-object.js';
import { OUTCOMES } from '../core/types.js';
import type { Llm } from '../ports/llm.js';
import { explicitOutcome, metadataStrings } from './cues.js';
import { describeEpisode, eventLines, type DescribeEvent, type EpisodeDescription, type Summarizer } from './describe-episode.js';
import { parseLearnOptions, type DescribeOptions } from './options.js';
import { clip, tidy } from './text.js';

export const llmEpisodeSchema = z.object({
  summary: z.string().min(1).describe('2–3 sentences: the situation, what was tried, how it ended'),
  outcome: z.enum(OUTCOMES).describe('SUCCESS, FAILURE, PARTIAL, or UNKNOWN when the events do not say'),
  outcomeDetails: z.string().nullable().describe('the outcome in the events’ own words, or null'),
  decisions: z.array(z.string()).max(20).describe('choices the agent made, one per item'),
  assumptions: z.array(z.string()).max(20).describe('what was taken for granted, including beliefs later corrected'),
  corrections: z.array(z.string()).max(20).describe('corrections received, in their own words'),
  rootCause: z.string().nullable().describe('the established root cause, or null when none was established'),
});
export type LlmEpisode = z.output<typeof llmEpisodeSchema>;

const SYSTEM = [
  'You describe one episode of an AI agent’s work for its long-term memory.',
  'Use only what the events say. Do not invent causes, fixes or results.',
  'An outcome is SUCCESS only when the events show it worked; FAILURE when they show it did not; PARTIAL when it',
  'helped only in part; otherwise UNKNOWN. A correction overrides what was believed before it.',
].join(' ');

export interface LlmSummarizerOptions {
  options?: unknown;
  /** Used when the model cannot produce a valid description (LLM_OUTPUT, ADAPTER, UNAVAILABLE errors). */
  fallback?: Summarizer;
  temperature?: number;
}

export class LlmSummarizer implements Summarizer {
  readonly name: string;
  private readonly options: DescribeOptions;

  constructor(
    private readonly llm: Llm,
    private readonly cfg: LlmSummarizerOptions = {},
  ) {
    this.options = parseLearnOptions('describe', cfg.options);
    this.name = `llm:${llm.name}/${llm.model}`;
  }

  async summarize(events: readonly DescribeEvent[], opts: { signal?: AbortSignal } = {}): Promise<EpisodeDescription> {
    const shown = events.slice(-this.options.maxLlmEvents);
    const fallback = this.cfg.fallback;
    return generateObjectOr(
      this.llm,
      {
        schema: llmEpisodeSchema,
        name: 'episode_description',
        description: 'A structured description of one agent episode',
        system: SYSTEM,
        prompt: `Events of the episode, oldest first${shown.length < events.length ? ` (last ${shown.length} of ${events.length})` : ''}:\n${eventLines(shown).join('\n')}`,
        temperature: this.cfg.temperature ?? 0,
        signal: opts.signal,
      },
      (reply) => this.merge(events, reply),
      fallback && (() => fallback.summarize(events, opts)),
    );
  }

  private merge(events: readonly DescribeEvent[], r: LlmEpisode): EpisodeDescription {
    const base = describeEpisode(events, this.options);
    const item = (s: string) => clip(tidy(s), this.options.maxItemChars);
    const list = (xs: string[]) => xs.map(item).filter(Boolean);
    const explicit = [...events].reverse().map((e) => explicitOutcome(e.metadata)).find(Boolean);
    const metaCause = [...events].reverse().map((e) => metadataStrings(e.metadata, ['root_cause', 'rootCause'])[0]).find(Boolean);
    return {
      summary: clip(r.summary, this.options.maxSummaryChars),
      outcome: explicit ?? r.outcome,
      outcomeDetails: r.outcomeDetails ? item(r.outcomeDetails) : base.outcomeDetails,
      decisions: list(r.decisions),
      assumptions: list(r.assumptions),
      corrections: list(r.corrections),
      rootCause: metaCause ? item(metaCause) : r.rootCause ? item(r.rootCause) : undefined,
      situation: base.situation,
      importance: base.importance,
      method: 'llm',
    };
  }
}
