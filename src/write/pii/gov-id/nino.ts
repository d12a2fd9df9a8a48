import type { TextFeatures } from '../features.js';
import { collect, type Span } from '../types.js';

/**
 * UK National Insurance numbers: two prefix letters, six digits, a suffix A–D (`QQ 12 34 56 C`, `AB123456C`).
 * There is no check digit, so the prefix rules carry the weight: D, F, I, Q, U, V never appear, O never second,
 * and BG, GB, KN, NK, NT, TN, ZZ are never allocated.
 */
const NINO = /(?<![A-Za-z0-9])([A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]) ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9])/g;
const UNALLOCATED = new Set(['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ']);

export function detectNinos(text: string, f: TextFeatures): Span[] {
  if (f.digitCluster < 6) return [];
  return collect(NINO, text, 'gov_id', (m) =>
    UNALLOCATED.has(m[1] ?? '') ? undefined : { start: m.index, end: m.index + m[0].length },
  );
}
