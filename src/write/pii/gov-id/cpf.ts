import type { TextFeatures } from '../features.js';
import { cpfValid } from '../checksums.js';
import { collect, digitsOf, groupSpan, type Span } from '../types.js';

/** Brazilian CPF: `529.982.247-25` anywhere, bare eleven digits after a `CPF` label; both check digits must hold. */
const FORMATTED = /(?<![\w.-])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\w-]|\.\d)/g;
const LABELLED = /\bCPF\b(?:\s*(?:n[oº]\.?|number|#))?\s*[:#=]?\s*(\d{11})(?!\d)/dgi;

export function detectCpfs(text: string, f: TextFeatures): Span[] {
  if (f.digitCluster < 11) return [];
  const formatted = collect(FORMATTED, text, 'gov_id', (m) =>
    cpfValid(digitsOf(m[0])) ? { start: m.index, end: m.index + m[0].length } : undefined,
  );
  const labelled = collect(LABELLED, text, 'gov_id', (m) => (cpfValid(m[1] ?? '') ? groupSpan(m, 1) : undefined));
  return [...formatted, ...labelled];
}
