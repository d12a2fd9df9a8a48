import { createRequire } from 'node:module';
import type { CountryCode, MetadataJson } from 'libphonenumber-js/core';
import type { TextFeatures } from './features.js';
import type { Span } from './types.js';

/**
 * Phone numbers, found and validated by libphonenumber with full ("max") metadata, so a number must match a real
 * numbering plan, not merely have a plausible length: dates, years, version numbers and most order ids fail.
 * National formats are read as `defaultCountry`; numbers written with `+` (or `00`) and a calling code are found
 * for every country.
 */

const INTL_00 = /(?<![\p{L}\p{N}_.+])00(?=[1-9]\d)/gu;

// Digits at most three separator characters apart, as `textFeatures.digitCluster` counts them.
const CLUSTER = /\d(?:[ \t().\-/]{0,3}\d)*/g;
const MIN_DIGITS = 7;
// Two numbers side by side (`415-555-2671 212-555-0100`) still fit; a longer cluster is a table or a data dump.
const MAX_DIGITS = 40;
const MAX_CLUSTER_CHARS = 120;
// Context handed to libphonenumber around a cluster: a `+`/`tel:` before it, an `ext. 1234` after it.
const BEFORE = 8;
const AFTER = 16;

/**
 * libphonenumber with its full metadata (~230 modules), loaded when a text first holds a digit cluster that could
 * be a phone number, or a country is checked: a process that writes no such text never loads it.
 */
interface PhoneLib {
  core: typeof import('libphonenumber-js/core');
  metadata: MetadataJson;
}
let libphonenumber: PhoneLib | undefined;
function phoneLib(): PhoneLib {
  const load = createRequire(import.meta.url);
  libphonenumber ??= {
    core: load('libphonenumber-js/core') as typeof import('libphonenumber-js/core'),
    metadata: load('libphonenumber-js/metadata.max.json') as MetadataJson,
  };
  return libphonenumber;
}

/**
 * libphonenumber costs 0.1–0.5 ms per candidate (a number that fails validation under calling code 1 is tried
 * against all 25 NANP regions), so it is shown only windows around digit clusters that could hold a phone number,
 * never the whole text:
 * - a cluster has 7–40 digits in at most 120 characters; longer runs of numbers (tables, dumps) are not searched,
 *   which is the price of a bounded cost per write;
 * - a cluster not written as international (`+…`) must contain consecutive digit groups whose length is a
 *   possible national number length of `defaultCountry` (with or without its national prefix), dates aside.
 *   libphonenumber rejects anything else as a national number, so this changes its cost, not its answers.
 */
export function phoneDetector(defaultCountry: CountryCode): (text: string, f: TextFeatures) => Span[] {
  let shape: NationalShape | undefined;
  return (text, f) => {
    if (f.digitCluster < MIN_DIGITS) return [];
    const national = (shape ??= nationalShape(defaultCountry));
    // `0044 20 …` is how much of the world dials `+44 20 …`. Rewriting `00` as ` +` keeps every offset in place.
    const dialable = text.replace(INTL_00, ' +');
    const found = new Map<string, Span>();
    CLUSTER.lastIndex = 0;
    for (let m = CLUSTER.exec(dialable); m !== null; m = CLUSTER.exec(dialable)) {
      if (m[0].length > MAX_CLUSTER_CHARS) continue;
      const digits = countDigits(m[0]);
      if (digits < MIN_DIGITS || digits > MAX_DIGITS) continue;
      const international = /\+[\s(]*$/.test(dialable.slice(Math.max(0, m.index - 3), m.index));
      if (!international && !couldBeNational(m[0], national)) continue;
      const from = Math.max(0, m.index - BEFORE);
      const to = Math.min(text.length, m.index + m[0].length + AFTER);
      for (const span of phonesIn(text, dialable, from, to, defaultCountry)) found.set(`${span.start}:${span.end}`, span);
    }
    return [...found.values()];
  };
}

function phonesIn(text: string, dialable: string, from: number, to: number, defaultCountry: CountryCode): Span[] {
  const out: Span[] = [];
  const { core, metadata } = phoneLib();
  for (const n of core.findPhoneNumbersInText(dialable.slice(from, to), { defaultCountry }, metadata)) {
    let start = from + n.startsAt;
    const end = from + n.endsAt;
    if (dialable[start] === '+' && text[start] === '0') start--;
    // A match cut by the window's edge may be part of something longer; the full text decides.
    if (partOfLargerToken(text, start, end)) continue;
    out.push({ start, end, kind: 'phone' });
  }
  return out;
}

interface NationalShape {
  lengths: ReadonlySet<number>;
  prefix: string;
  /** International dialling prefix (`011` in the US): a cluster starting with it is international too. */
  idd: string;
}

function nationalShape(country: CountryCode): NationalShape {
  const metadata = new (phoneLib().core.Metadata)(phoneLib().metadata);
  metadata.selectNumberingPlan(country);
  const plan = metadata.numberingPlan;
  // `nationalPrefix()` exists at run time but is missing from the published typings.
  const withPrefix = plan as unknown as { nationalPrefix?: () => string | undefined } | undefined;
  return {
    lengths: new Set(plan?.possibleLengths() ?? []),
    prefix: withPrefix?.nationalPrefix?.() ?? '',
    idd: /^\d+$/.test(plan?.IDDPrefix() ?? '') ? plan!.IDDPrefix() : (plan?.defaultIDDPrefix() ?? ''),
  };
}

// Dates are the commonest digit clusters in logs; they are never phone numbers, so they do not count as groups.
const DATES = /\b(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{4})\b/g;

function couldBeNational(cluster: string, shape: NationalShape): boolean {
  const groups = cluster.replace(DATES, '_').split(/[^\d]+/).filter((g) => g !== '');
  for (let i = 0; i < groups.length; i++) {
    if (shape.idd !== '' && groups[i]!.startsWith(shape.idd)) return true;
    let digits = '';
    for (let j = i; j < groups.length && digits.length <= 17; j++) {
      digits += groups[j];
      if (shape.lengths.has(digits.length)) return true;
      if (shape.prefix !== '' && digits.startsWith(shape.prefix) && shape.lengths.has(digits.length - shape.prefix.length)) {
        return true;
      }
    }
  }
  return false;
}

function countDigits(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

/** `v1.555.123.4567` or `id=4155552671x` glue the digits into something else (a version, an identifier). */
function partOfLargerToken(text: string, start: number, end: number): boolean {
  const before = text[start - 1] ?? ' ';
  const after = text[end] ?? ' ';
  const afterNext = text[end + 1] ?? ' ';
  if (/[\p{L}\p{N}_]/u.test(before) || /[\p{L}\p{N}_]/u.test(after)) return true;
  if (before === '.' || (after === '.' && /\d/.test(afterNext))) return true;
  return false;
}

/** Whether `code` has a numbering plan; answered from the metadata's country table alone (one JSON file). */
export function isPhoneCountry(code: string): code is CountryCode {
  const { countries } = createRequire(import.meta.url)('libphonenumber-js/metadata.max.json') as { countries: Record<string, unknown> };
  return Object.hasOwn(countries, code);
}
