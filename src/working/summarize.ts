/**
 * Seed 002's summarization strategy: turns leaving the window are folded into a running summary ("I
 * downloaded the data and cleaned it"), so the gist stays while the raw turns go.
 *
 * The default is extractive and deterministic: every sentence of the previous summary and of the folded
 * turns (labelled with its speaker) is scored for how much it carries —
 *   score = min(1, content terms / 8) + 0.5·[outcome/decision/goal cue] + 0.3·[number or code token]
 *           + 0.2·[said by the user] + 0.3·[already in the summary] − 0.3·[a question from the agent]
 * — acknowledgements ("ok", "Sure.": one content word, no cue) and near-duplicates (Jaccard of content stems
 * ≥ 0.7) are dropped, and the best sentences that fit the budget are kept in their original order. The budget
 * compresses: the previous summary plus at most half the tokens being folded (never less than the best new
 * sentence), and never more than `maxTokens`. The LLM summarizer writes the paragraph instead, and falls back to
 * the extractive one when the model fails.
 */
import { noModelAnswer } from '../adapters/llms/generate-object.js';
import type { TokenCounter } from '../core/tokens.js';
import type { Llm } from '../ports/llm.js';
import { clip, jaccard, sentences, stemSet } from '../learn/text.js';
import type { TurnRole, WmTurn } from './state.js';

export interface Summarizer {
  readonly name: string;
  summarize(previous: string | undefined, turns: readonly WmTurn[], maxTokens: number): Promise<string>;
}

const LABEL: Record<TurnRole, string> = { user: 'User', agent: 'Agent', tool: 'Tool', system: 'System' };
const CUE = /\b(?:decid\w*|agreed|will|plan\w*|goal|need\w*|must|fixed|resolved|solved|failed|fails|error\w*|because|found|confirmed|result\w*|root cause|deadline|prefer\w*|done|completed|deployed|created|downloaded|cleaned)\b/i;
const CODE = /\d|\b[A-Z]{2,}[A-Z0-9_]*\b|`[^`]+`/;
const MAX_SENTENCE_CHARS = 300;
const DUPLICATE = 0.7;
const KEEP_RATIO = 0.5;

interface Candidate {
  text: string;
  order: number;
  score: number;
  stems: Set<string>;
}

function candidate(text: string, order: number, role: TurnRole | 'summary'): Candidate | undefined {
  const stems = stemSet(text);
  const cue = CUE.test(text);
  const code = CODE.test(text);
  if (stems.size === 0 || (stems.size < 2 && !cue && !code)) return undefined;
  let score = Math.min(1, stems.size / 8);
  if (cue) score += 0.5;
  if (code) score += 0.3;
  if (role === 'user') score += 0.2;
  if (role === 'summary') score += 0.3;
  if (role === 'agent' && /\?\s*$/.test(text)) score -= 0.3;
  const shown = role === 'summary' ? text : `${LABEL[role]}: ${text}`;
  return { text: clip(shown, MAX_SENTENCE_CHARS), order, score, stems };
}

export function summarizeExtractive(previous: string | undefined, turns: readonly WmTurn[], maxTokens: number, tokens: TokenCounter): string {
  const pool: Candidate[] = [];
  let order = 0;
  for (const s of sentences(previous ?? '')) {
    const c = candidate(s, order++, 'summary');
    if (c) pool.push(c);
  }
  const previousCount = order;
  for (const t of turns) {
    for (const s of sentences(t.content)) {
      const c = candidate(s, order++, t.role);
      if (c) pool.push(c);
    }
  }
  const chosen: Candidate[] = [];
  const render = (cs: readonly Candidate[]) => [...cs].sort((a, b) => a.order - b.order).map((c) => c.text).join(' ');
  const ranked = [...pool].sort((a, b) => b.score - a.score || a.order - b.order);
  const fresh = ranked.filter((c) => c.order >= previousCount);
  const folded = tokens.count(turns.map((t) => t.content).join(' '));
  const budget = Math.min(
    maxTokens,
    tokens.count(previous ?? '') + Math.max(fresh[0] ? tokens.count(fresh[0].text) : 0, Math.ceil(KEEP_RATIO * folded)),
  );
  for (const c of ranked) {
    if (chosen.some((k) => jaccard(k.stems, c.stems) >= DUPLICATE)) continue;
    chosen.push(c);
    if (tokens.count(render(chosen)) > budget) chosen.pop();
  }
  if (chosen.length === 0 && pool.length > 0) {
    const best = [...pool].sort((a, b) => b.score - a.score)[0]!;
    return tokens.truncate(best.text, maxTokens);
  }
  return render(chosen);
}

export class ExtractiveSummarizer implements Summarizer {
  readonly name = 'extractive';
  constructor(private readonly tokens: TokenCounter) {}
  async summarize(previous: string | undefined, turns: readonly WmTurn[], maxTokens: number): Promise<string> {
    return summarizeExtractive(previous, turns, maxTokens, this.tokens);
  }
}

const SYSTEM = [
  'You maintain the running summary of an agent’s working session.',
  'Fold the new turns into the previous summary as one short paragraph in the past tense.',
  'Keep goals, decisions, results, errors, names, numbers and open questions; drop greetings and chatter.',
  'Reply with the summary text only.',
].join(' ');

export class LlmSummarizer implements Summarizer {
  readonly name: string;
  constructor(
    private readonly llm: Llm,
    private readonly tokens: TokenCounter,
    private readonly fallback: Summarizer = new ExtractiveSummarizer(tokens),
  ) {
    this.name = `llm:${llm.name}/${llm.model}`;
  }

  async summarize(previous: string | undefined, turns: readonly WmTurn[], maxTokens: number): Promise<string> {
    const shown = turns.map((t) => `${LABEL[t.role]}: ${clip(t.content, 1500)}`).join('\n');
    try {
      const reply = await this.llm.complete({
        system: SYSTEM,
        messages: [{ role: 'user', content: `Previous summary:\n${previous?.trim() || '(none)'}\n\nNew turns:\n${shown}\n\nWrite the updated summary in at most ${maxTokens} tokens.` }],
        maxTokens: Math.max(16, maxTokens),
        temperature: 0,
      });
      const text = reply.text.replace(/\s+/g, ' ').trim();
      if (text === '') return this.fallback.summarize(previous, turns, maxTokens);
      return this.tokens.truncate(text, maxTokens);
    } catch (e) {
      if (noModelAnswer(e)) {
        return this.fallback.summarize(previous, turns, maxTokens);
      }
      throw e;
    }
  }
}
