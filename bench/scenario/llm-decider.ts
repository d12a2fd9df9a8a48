/**
 * LLM mode (`--llm`): both agents send the same prompt — the retrieved memory as each memory renders it, then
 * the report — and receive one "Investigate: …" line and a reason. Structured output through generateObject
 * (bench/lib/llm-json.ts: validated with zod, one re-ask on invalid output).
 */
import { z } from 'zod';
import { callForJson } from '../lib/llm-json.js';
import type { Llm } from '../../src/index.js';
import type { Decider } from './decider.js';

export const llmDecisionSchema = z
  .object({
    decision: z.string().min(1).max(1000),
    reason: z.string().max(2000),
  })
  .strict();

export const DECISION_SYSTEM =
  'You are a site reliability engineer diagnosing a production incident. You are given what your memory retrieved ' +
  'about past incidents and a new bug report. Decide the single most likely root cause to investigate first. ' +
  'Past cases only help when their situation matches; if none does, rely on general operations experience. ' +
  'Answer as JSON: "decision" is one line beginning with "Investigate: " that names the cause; "reason" names the ' +
  'past case (or the general rule) you relied on.';

export function decisionPrompt(report: string, contextText: string): string {
  return `## Retrieved memory\n${contextText.trim() || '(nothing retrieved)'}\n\n## New bug report\n${report}\n\nWhat do you investigate first?`;
}

/** One line beginning with "Investigate: " whatever the model's formatting. */
export function normalizeDecision(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const body = line.replace(/^(?:decision\s*:\s*)?investigate\s*:\s*/i, '');
  return `Investigate: ${body}`;
}

export function createLlmDecider(llm: Llm, opts: { maxTokens?: number } = {}): Decider {
  return {
    mode: 'llm',
    async decide(report, retrieval) {
      const out = await callForJson(llm, {
        schema: llmDecisionSchema,
        name: 'incident_decision',
        system: DECISION_SYSTEM,
        prompt: decisionPrompt(report, retrieval.contextText),
        maxTokens: opts.maxTokens ?? 400,
        temperature: 0,
      });
      return { text: normalizeDecision(out.decision), reason: out.reason.trim(), basis: { kind: 'llm', model: `${llm.name}/${llm.model}` } };
    },
  };
}
