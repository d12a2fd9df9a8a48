import type { PiiKind } from '../../core/types.js';
import type { TextFeatures } from './features.js';

/** A half-open range `[start, end)` of the scanned text that holds one piece of PII. */
export interface Span {
  start: number;
  end: number;
  kind: PiiKind;
}

/**
 * A detector is a pure function: same text in, same spans out, no state kept between calls. `features` must be
 * `textFeatures(text)`; detectors use it to skip their regexes when they cannot match.
 */
export type Detect = (text: string, features: TextFeatures) => Span[];

/** The text that replaces a finding. No digits, `@`, `:` or `.`, so no detector can fire on it again. */
export const PLACEHOLDERS: Readonly<Record<PiiKind, string>> = {
  email: '[EMAIL]',
  phone: '[PHONE]',
  card: '[CARD]',
  iban: '[IBAN]',
  gov_id: '[GOV_ID]',
  ip: '[IP]',
  secret: '[SECRET]',
};

/** Matches a value that is already one of our placeholders (so a second pass leaves it alone). */
export const PLACEHOLDER_RE = /^\[(?:EMAIL|PHONE|CARD|IBAN|GOV_ID|IP|SECRET)\]$/;

/** Runs a global regex over `text` and turns every match accepted by `accept` into a span. */
export function collect(
  re: RegExp,
  text: string,
  kind: PiiKind,
  accept: (m: RegExpExecArray) => { start: number; end: number } | undefined,
): Span[] {
  const out: Span[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const hit = accept(m);
    if (hit) out.push({ start: hit.start, end: hit.end, kind });
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

/** The span of capture group `group` of `m` (needs the `d` flag), or undefined if it did not take part. */
export function groupSpan(m: RegExpExecArray, group: number): { start: number; end: number } | undefined {
  const range = m.indices?.[group];
  return range ? { start: range[0], end: range[1] } : undefined;
}

/** Keeps only the digits of `s`. */
export function digitsOf(s: string): string {
  return s.replace(/\D+/g, '');
}
