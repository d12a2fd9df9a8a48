/**
 * Similar examples as guidance for the next answer (seed 003: follow the format, tool use and style of
 * answers the user approved; avoid what they rejected). Fitted to a token budget: whole examples only,
 * best first, alternating Follow and Avoid so neither side is crowded out.
 *
 *   ## Guidance from past feedback
 *   Follow (the user approved these answers to similar requests):
 *   - Request: "…"
 *     Answer: "…"
 *     Why: …
 *   Avoid (the user rejected these answers to similar requests):
 *   - …
 */
import { inertText } from '../../core/prompt-safe.js';
import type { TokenCounter } from '../../core/tokens.js';
import { clip } from '../text.js';
import type { SimilarExample, SimilarExamples } from './similar.js';

const MAX_QUERY_CHARS = 300;
const MAX_RESPONSE_CHARS = 600;
const MAX_REASON_CHARS = 240;

const HEADER = '## Guidance from past feedback';
const FOLLOW = 'Follow (the user approved these answers to similar requests; reuse their format, tools and style):';
const AVOID = 'Avoid (the user rejected these answers to similar requests; take a different approach):';

export interface Guidance {
  /** Empty when no similar example fits or exists. */
  text: string;
  tokens: number;
  followIds: string[];
  avoidIds: string[];
}

function entry(s: SimilarExample): string {
  const e = s.example;
  // Stored examples are data: each stays on its own line (core/prompt-safe.ts).
  const lines = [`- Request: "${clip(inertText(e.query), MAX_QUERY_CHARS)}"`, `  Answer: "${clip(inertText(e.response), MAX_RESPONSE_CHARS)}"`];
  if (e.reason) lines.push(`  Why: ${clip(inertText(e.reason), MAX_REASON_CHARS)}`);
  return lines.join('\n');
}

function render(follow: readonly SimilarExample[], avoid: readonly SimilarExample[]): string {
  if (follow.length + avoid.length === 0) return '';
  const parts = [HEADER];
  if (follow.length) parts.push(FOLLOW, ...follow.map(entry));
  if (avoid.length) parts.push(AVOID, ...avoid.map(entry));
  return parts.join('\n');
}

export function formatGuidance(found: SimilarExamples, tokens: TokenCounter, maxTokens: number): Guidance {
  const follow: SimilarExample[] = [];
  const avoid: SimilarExample[] = [];
  const order: { s: SimilarExample; side: SimilarExample[] }[] = [];
  for (let i = 0; i < Math.max(found.positive.length, found.negative.length); i++) {
    if (found.positive[i]) order.push({ s: found.positive[i]!, side: follow });
    if (found.negative[i]) order.push({ s: found.negative[i]!, side: avoid });
  }
  for (const { s, side } of order) {
    side.push(s);
    if (tokens.count(render(follow, avoid)) > maxTokens) side.pop();
  }
  const text = render(follow, avoid);
  return { text, tokens: tokens.count(text), followIds: follow.map((s) => s.example.id), avoidIds: avoid.map((s) => s.example.id) };
}
