import type { TextFeatures } from '../features.js';
import { verhoeffValid } from '../checksums.js';
import { collect, digitsOf, groupSpan, type Span } from '../types.js';

/**
 * Indian Aadhaar numbers: twelve digits, first 2–9, last a Verhoeff check digit. Printed as `2345 6789 0124`;
 * the bare twelve-digit form counts only after a label, because Verhoeff alone passes one random number in ten.
 */
const GROUPED = /(?<![\w-]|\d[ -])[2-9]\d{3}([ -])\d{4}\1\d{4}(?![\w-]|[ -]\d)/g;
const LABELLED = /\b(?:aadhaa?r|UIDAI|UID)(?:\s*(?:card|no\.?|number|#))*\s*[:#=-]?\s*([2-9]\d{11})(?!\d)/dgi;

export function detectAadhaar(text: string, f: TextFeatures): Span[] {
  if (f.digitCluster < 12) return [];
  const grouped = collect(GROUPED, text, 'gov_id', (m) =>
    verhoeffValid(digitsOf(m[0])) ? { start: m.index, end: m.index + m[0].length } : undefined,
  );
  const labelled = collect(LABELLED, text, 'gov_id', (m) => (verhoeffValid(m[1] ?? '') ? groupSpan(m, 1) : undefined));
  return [...grouped, ...labelled];
}
