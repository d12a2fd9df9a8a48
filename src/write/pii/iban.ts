import { ibanMod97Valid } from './checksums.js';
import type { TextFeatures } from './features.js';
import { collect, type Span } from './types.js';

/**
 * IBANs, bare (`DE89370400440532013000`) or in print groups (`DE89 3704 0044 0532 0130 00`). Valid means: a known
 * country code, exactly that country's length, and the ISO 7064 mod-97 check. Upper case only, as printed.
 */

const LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28, CH: 21, CR: 22,
  CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FK: 18, FO: 18, FR: 27, GB: 22,
  GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HN: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30,
  KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20,
  MR: 27, MT: 31, MU: 30, NI: 28, NL: 18, NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22,
  RU: 33, SA: 24, SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26,
  UA: 29, VA: 22, VG: 24, XK: 20, YE: 30,
};

// Country code, check digits, then alphanumerics with at most one space between any two.
const CANDIDATE = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}/g;

export function detectIbans(text: string, f: TextFeatures): Span[] {
  if (!f.upperDigit) return [];
  return collect(CANDIDATE, text, 'iban', (m) => {
    const length = LENGTHS[m[0].slice(0, 2)];
    if (length === undefined) return undefined;
    const end = endOfIban(m[0], length);
    if (end === undefined || /[\p{L}\p{N}_]/u.test(text[m.index + end] ?? ' ')) return undefined;
    const compact = m[0].slice(0, end).replace(/ /g, '');
    return ibanMod97Valid(compact) ? { start: m.index, end: m.index + end } : undefined;
  });
}

/** Offset just past the `length`-th alphanumeric, if the run has that many and the IBAN is not glued to more. */
function endOfIban(run: string, length: number): number | undefined {
  let seen = 0;
  for (let i = 0; i < run.length; i++) {
    if (run[i] === ' ') continue;
    seen++;
    if (seen === length) return run[i + 1] === undefined || run[i + 1] === ' ' ? i + 1 : undefined;
  }
  return undefined;
}
