import type { TextFeatures } from '../features.js';
import { bsnValid, luhnValid } from '../checksums.js';
import { collect, digitsOf, groupSpan, type Span } from '../types.js';

/**
 * Nine-digit national numbers that only a label tells apart from any other nine digits, then a checksum confirms:
 * Canadian SIN (Luhn) and Dutch BSN (elfproef).
 */
const SIN =
  /(?:\bSIN\b|\b[Ss]ocial [Ii]nsurance (?:[Nn]umber|[Nn]o\.?|#))(?:\s*(?:#|[Nn]o\.?|[Nn]umber))?\s*[:#=]?\s*(\d{3}([ -]?)\d{3}\2\d{3})(?![\d-])/dg;
const BSN =
  /\b(?:BSN|[Bb]urgerservicenummer)\b(?:\s*(?:#|nr\.?|[Nn]ummer|[Nn]umber))?\s*[:#=]?\s*(\d{9}|\d{4}\.\d{2}\.\d{3}|\d{3}([ .])\d{3}\2\d{3})(?![\d.-])/dg;

export function detectLabelledNationalIds(text: string, f: TextFeatures): Span[] {
  if (f.digitCluster < 9) return [];
  const sin = collect(SIN, text, 'gov_id', (m) => {
    const d = digitsOf(m[1] ?? '');
    return d[0] !== '0' && luhnValid(d) ? groupSpan(m, 1) : undefined;
  });
  const bsn = collect(BSN, text, 'gov_id', (m) => (bsnValid(digitsOf(m[1] ?? '')) ? groupSpan(m, 1) : undefined));
  return [...sin, ...bsn];
}
