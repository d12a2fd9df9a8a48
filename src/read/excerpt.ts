/**
 * Excerpts of long memories. A memory of several hundred words (an assistant's long answer, a pasted document)
 * would spend a prompt's budget whole on the one or two sentences a query is about, and crowd out other
 * evidence: with top_k 10 and a 2,000-token budget a context of such turns held fewer than seven items. So a
 * memory longer than EXCERPT_FROM_TOKENS renders as the sentences that share most of the query's content words
 * (in their order, gaps marked "…"), at most EXCERPT_TOKENS, then a pointer to the full memory:
 *
 *   user: … We're flying to Sapporo in February for the snow festival. … [excerpt, 14 of 212 words; full memory evt_01J…]
 *
 * The item keeps its id, provenance and scores; `fetchEvents` / the record id give the whole text. When no
 * sentence shares a content word, the excerpt is the memory's opening.
 */
import type { TokenCounter } from '../core/tokens.js';
import { analyze } from '../adapters/rerankers/analyze.js';
import { splitLabel } from '../write/document-vectors.js';

/** A memory longer than this (in tokens) renders as an excerpt. */
export const EXCERPT_FROM_TOKENS = 160;
/** The excerpt's sentences hold at most this many tokens (one sentence at least, cut if it alone is longer). */
export const EXCERPT_TOKENS = 90;

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const wordCount = (s: string) => s.split(/\s+/).filter((w) => w !== '').length;

function contentTerms(text: string): Set<string> {
  const a = analyze(text);
  return new Set(a.terms.filter((_, i) => a.content[i]));
}

/** `body` as it renders for `query`: whole when short, else an excerpt with a pointer to the memory `id`. */
export function excerpt(body: string, query: string, id: string, tokens: TokenCounter): string {
  if (tokens.count(body) <= EXCERPT_FROM_TOKENS) return body;
  const { label, body: rest } = splitLabel(body);
  const sentences = [...segmenter.segment(rest)].map((s) => s.segment.trim()).filter((s) => s !== '');
  if (sentences.length === 0) return body;
  const wanted = contentTerms(query);
  const scored = sentences.map((s, i) => {
    const terms = contentTerms(s);
    let shared = 0;
    for (const t of wanted) if (terms.has(t)) shared++;
    return { i, shared, cost: tokens.count(s) };
  });
  const order = [...scored].sort((a, b) => b.shared - a.shared || a.i - b.i);
  const picked: number[] = [];
  let used = 0;
  for (const s of order) {
    if (picked.length > 0 && (s.shared === 0 && order[0]!.shared > 0)) break;
    if (used + s.cost > EXCERPT_TOKENS && picked.length > 0) continue;
    picked.push(s.i);
    used += s.cost;
    if (used >= EXCERPT_TOKENS) break;
  }
  picked.sort((a, b) => a - b);
  const parts: string[] = [];
  picked.forEach((i, j) => {
    if (j === 0 ? i > 0 : i > picked[j - 1]! + 1) parts.push('…');
    parts.push(sentences[i]!);
  });
  if (picked.at(-1)! < sentences.length - 1) parts.push('…');
  let text = parts.join(' ');
  if (tokens.count(text) > EXCERPT_TOKENS + 4) text = `${tokens.truncate(text, EXCERPT_TOKENS).trimEnd()} …`;
  const shown = picked.reduce((n, i) => n + wordCount(sentences[i]!), 0);
  const pointer = `[excerpt, ${Math.min(shown, wordCount(rest))} of ${wordCount(rest)} words; full memory ${id}]`;
  return `${label ? `${label}: ` : ''}${text} ${pointer}`;
}
