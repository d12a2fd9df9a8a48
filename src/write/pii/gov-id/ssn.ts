import type { TextFeatures } from '../features.js';
import { collect, digitsOf, groupSpan, type Span } from '../types.js';

/**
 * US Social Security numbers. `123-45-6789` anywhere; the bare `123456789` or spaced `123 45 6789` forms only
 * after a label (SSN, social security number), since nine digits alone are as often an order or account number.
 * The SSA never issues area 000, 666 or 900–999, group 00 or serial 0000: those are look-alikes.
 */
const DASHED = /(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])/g;
const LABELLED =
  /\b(?:SSN|SS#|social\s+security(?:\s+(?:number|no\.?|#))?)(?:\s*(?:#|no\.?|number))?\s*(?:is\s+|[:#=]\s*)?(\d{3} ?\d{2} ?\d{4})(?![\d-])/dgi;

export function isSsn(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const area = Number(digits.slice(0, 3));
  return area !== 0 && area !== 666 && area < 900 && digits.slice(3, 5) !== '00' && digits.slice(5) !== '0000';
}

export function detectSsns(text: string, f: TextFeatures): Span[] {
  if (f.digitCluster < 9) return [];
  const dashed = collect(DASHED, text, 'gov_id', (m) =>
    isSsn(digitsOf(m[0])) ? { start: m.index, end: m.index + m[0].length } : undefined,
  );
  const labelled = collect(LABELLED, text, 'gov_id', (m) => (isSsn(digitsOf(m[1] ?? '')) ? groupSpan(m, 1) : undefined));
  return [...dashed, ...labelled];
}
