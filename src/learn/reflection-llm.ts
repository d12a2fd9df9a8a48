/**
 * The LLM reflector, after Generative Agents: the model reads the numbered recent events and states a few
 * high-level insights, each citing the numbers of the events it rests on. Citations are mapped back to event
 * ids; an insight that cites nothing real is dropped.
 */
import { z } from 'zod';
import { generateObjectOr } from '../adapters/llms/generate-object.js';
import type { Llm } from '../ports/llm.js';
import { parseLearnOptions, type ReflectionOptions } from './options.js';
import type { Insight, ReflectionEvent, Reflector } from './reflection.js';
import { clip } from './text.js';

export const llmInsightsSchema = z.object({
  insights: z
    .array(
      z.object({
        text: z.string().min(1).describe('one high-level insight, specific to these events'),
        evidence: z.array(z.number().int()).describe('numbers of the events it rests on'),
      }),
    )
    .max(20),
});

const SYSTEM = [
  'You reflect on an AI agent’s recent experience to help it learn.',
  'State high-level insights the events support: recurring causes, what worked, what kept failing, what was corrected.',
  'Cite the numbers of the events each insight rests on. Be specific; no generic advice.',
].join(' ');

export interface LlmReflectorOptions {
  options?: unknown;
  fallback?: Reflector;
  temperature?: number;
}

export class LlmReflector implements Reflector {
  readonly name: string;
  private readonly options: ReflectionOptions;

  constructor(
    private readonly llm: Llm,
    private readonly cfg: LlmReflectorOptions = {},
  ) {
    this.options = parseLearnOptions('reflection', cfg.options);
    this.name = `llm:${llm.name}/${llm.model}`;
  }

  async reflect(events: readonly ReflectionEvent[], opts: { signal?: AbortSignal } = {}): Promise<Insight[]> {
    const shown = events.slice(-this.options.windowSize);
    if (shown.length === 0) return [];
    const fallback = this.cfg.fallback;
    return generateObjectOr(
      this.llm,
      {
        schema: llmInsightsSchema,
        name: 'insights',
        description: 'Insights drawn from recent events',
        system: SYSTEM,
        prompt: `Recent events:\n${shown.map((e, i) => `${i + 1}. [${e.type}] ${clip(e.content, 400)}`).join('\n')}\n\nWhat ${this.options.maxInsights} or fewer high-level insights can you infer?`,
        temperature: this.cfg.temperature ?? 0,
        signal: opts.signal,
      },
      (reply) =>
        reply.insights.slice(0, this.options.maxInsights).flatMap((ins): Insight[] => {
          const cited = [...new Set(ins.evidence)].filter((n) => n >= 1 && n <= shown.length).map((n) => shown[n - 1]!);
          if (cited.length === 0) return [];
          const importance = cited.reduce((s, e) => s + Math.min(1, Math.max(0, e.importance)), 0) / cited.length;
          return [{ kind: 'llm', text: ins.text.trim(), evidenceIds: cited.map((e) => e.id), importance: Math.round(importance * 1000) / 1000 }];
        }),
      fallback && (() => fallback.reflect(events, opts)),
    );
  }
}
