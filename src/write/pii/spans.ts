import type { PiiKind } from '../../core/types.js';
import { PLACEHOLDERS, type Span } from './types.js';

/**
 * On overlap the more specific kind wins: a vendor-prefixed token over the `token@github.com` email it sits in,
 * a checksum-validated card or IBAN over a phone number read inside its digits. Within a kind the longest span
 * wins, then the earliest. A total order, so the same text always scrubs the same way whatever order the
 * detectors ran in.
 */
const SPECIFICITY: Readonly<Record<PiiKind, number>> = {
  secret: 0,
  card: 1,
  iban: 2,
  gov_id: 3,
  email: 4,
  ip: 5,
  phone: 6,
};

function compareSpans(a: Span, b: Span): number {
  return SPECIFICITY[a.kind] - SPECIFICITY[b.kind] || b.end - b.start - (a.end - a.start) || a.start - b.start;
}

/** The non-overlapping subset to replace, in text order. */
export function resolveOverlaps(spans: readonly Span[]): Span[] {
  if (spans.length <= 1) return [...spans];
  const ranked = [...spans].sort(compareSpans);
  const kept: Span[] = [];
  for (const s of ranked) {
    if (s.end <= s.start) continue;
    if (kept.every((k) => s.end <= k.start || s.start >= k.end)) kept.push(s);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** Replaces each span (non-overlapping, in order) with its kind's placeholder. */
export function replaceSpans(text: string, spans: readonly Span[]): string {
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + PLACEHOLDERS[s.kind];
    at = s.end;
  }
  return out + text.slice(at);
}
