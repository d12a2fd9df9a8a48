import { luhnValid } from './checksums.js';
import type { TextFeatures } from './features.js';
import { collect, type Span } from './types.js';

/**
 * Payment card numbers: 13–19 digits, bare or grouped by single spaces or dashes, that pass Luhn and start with
 * an issuer prefix (IIN) that is really in use for that length. Luhn alone passes one random number in ten;
 * the IIN table is what keeps timestamps and order numbers out.
 */

// Runs of digits joined by single spaces/dashes, not glued to letters, other digits, dashes or decimal points.
const CANDIDATE = /(?<![\w.,-])\d(?:[ -]?\d){12,22}(?![\w-]|[.,]\d)/g;

interface Brand {
  prefix: RegExp;
  lengths: readonly number[];
}

const SIXTEEN_TO_19 = [16, 17, 18, 19];
const BRANDS: readonly Brand[] = [
  { prefix: /^4/, lengths: [13, 16, 19] }, // Visa
  { prefix: /^(?:5[1-5]|2(?:22[1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720))/, lengths: [16] }, // Mastercard
  { prefix: /^3[47]/, lengths: [15] }, // American Express
  { prefix: /^3(?:0[0-5]|095|6|[89])/, lengths: [14, 15, 16, 17, 18, 19] }, // Diners Club
  { prefix: /^(?:6011|64[4-9]|65)/, lengths: SIXTEEN_TO_19 }, // Discover
  { prefix: /^35(?:2[89]|[3-8]\d)/, lengths: SIXTEEN_TO_19 }, // JCB
  { prefix: /^62/, lengths: SIXTEEN_TO_19 }, // UnionPay (and Discover's 622126–622925 range)
  { prefix: /^(?:5018|5020|5038|5893|6304|6759|676[1-3])/, lengths: [13, 14, 15, 16, 17, 18, 19] }, // Maestro
  { prefix: /^220[0-4]/, lengths: SIXTEEN_TO_19 }, // Mir
  { prefix: /^(?:60|508)/, lengths: [16] }, // RuPay
];

export function isCardNumber(digits: string): boolean {
  if (digits.length < 13 || digits.length > 19) return false;
  if (!BRANDS.some((b) => b.prefix.test(digits) && b.lengths.includes(digits.length))) return false;
  return luhnValid(digits);
}

export function detectCards(text: string, f: TextFeatures): Span[] {
  if (f.digitCluster < 13) return [];
  return collect(CANDIDATE, text, 'card', (m) => {
    const end = longestCardPrefix(m[0]);
    return end === undefined ? undefined : { start: m.index, end: m.index + end };
  });
}

/**
 * A run can hold a card followed by more numbers (`4111 1111 1111 1111 12 27`). Grouped runs are tried group by
 * group from the longest; a bare run must be a card as a whole. Mixed separators (`4111-1111 1111`) are not cards.
 */
function longestCardPrefix(run: string): number | undefined {
  const seps = run.match(/[ -]/g);
  if (!seps) return isCardNumber(run) ? run.length : undefined;
  if (seps.some((s) => s !== seps[0])) return undefined;
  const groups = run.split(seps[0]!);
  for (let n = groups.length; n >= 2 && groups[0]!.length >= 4; n--) {
    const digits = groups.slice(0, n).join('');
    if (digits.length < 13) break;
    if (isCardNumber(digits)) return groups.slice(0, n).join(seps[0]!).length;
  }
  return isCardNumber(groups[0]!) ? groups[0]!.length : undefined;
}
