/**
 * PII scrubbing at ingest: the step of the write path between validation and hashing, so that nothing personal is
 * ever stored, hashed, embedded or indexed. Findings become typed placeholders (`[EMAIL]`, `[CARD]`, …); the
 * report counts them by kind and never holds the values.
 */
import type { PiiConfig } from '../core/config.js';
import { EngramError } from '../core/errors.js';
import type { Json, JsonObject, PiiKind, PiiReport } from '../core/types.js';
import { createFinder, type Finder } from './pii/find.js';
import { isPhoneCountry } from './pii/phone.js';
import { isSecretKeyName } from './pii/secret-names.js';
import { replaceSpans } from './pii/spans.js';
import { PLACEHOLDER_RE, PLACEHOLDERS, type Span } from './pii/types.js';

export interface ScrubbedText {
  text: string;
  report: PiiReport;
}

export interface ScrubbedJson<T extends Json = Json> {
  value: T;
  report: PiiReport;
}

export interface Scrubber {
  /** Replaces every finding in `text` with its placeholder. */
  scrub(text: string): ScrubbedText;
  /**
   * Scrubs every string (object keys included) and every integer of seven or more digits inside `value`, keeping
   * the structure. A value under a credential-named key (`password`, `api_key`, `accessToken`, `Authorization` …)
   * is replaced whole by `[SECRET]` when it is a non-empty string or a number; objects and arrays under such a key
   * are walked like any other. A number holding PII becomes the placeholder string. Unchanged subtrees are
   * returned as the same objects.
   */
  scrubJson(value: JsonObject): ScrubbedJson<JsonObject>;
  scrubJson(value: Json): ScrubbedJson;
  /** The findings in `text`, resolved and in text order (for diagnostics and tests; values are not copied). */
  find(text: string): Span[];
}

export const CLEAN_REPORT: PiiReport = Object.freeze({ scrubbed: false, counts: Object.freeze({}) }) as PiiReport;

/** Sums the counts of several reports (an event's content, args, result, metadata …) into one. */
export function mergeReports(...reports: PiiReport[]): PiiReport {
  const counts: Partial<Record<PiiKind, number>> = {};
  for (const r of reports) {
    for (const [kind, n] of Object.entries(r.counts) as [PiiKind, number | undefined][]) {
      if (n) counts[kind] = (counts[kind] ?? 0) + n;
    }
  }
  const scrubbed = reports.some((r) => r.scrubbed) || Object.keys(counts).length > 0;
  return { scrubbed, counts };
}

// Removing a finding can, in rare texts, bring two fragments together into a new one; a few passes settle it.
const MAX_PASSES = 4;

export function createScrubber(cfg: PiiConfig): Scrubber {
  const country = cfg.defaultCountry.toUpperCase();
  if (!isPhoneCountry(country)) {
    throw new EngramError('CONFIG', `pii.defaultCountry: unknown region "${cfg.defaultCountry}"`, {
      issues: [{ path: 'pii.defaultCountry', message: 'not an ISO 3166-1 alpha-2 region with a phone numbering plan' }],
    });
  }
  const active = cfg.enabled && cfg.kinds.length > 0;
  const find = createFinder({ kinds: cfg.enabled ? cfg.kinds : [], defaultCountry: country });
  const redactSecretKeys = cfg.enabled && cfg.kinds.includes('secret');
  const scrub = (text: string): ScrubbedText => scrubText(find, text);

  function scrubJson(value: JsonObject): ScrubbedJson<JsonObject>;
  function scrubJson(value: Json): ScrubbedJson;
  function scrubJson(value: Json): ScrubbedJson {
    if (!active) return { value, report: CLEAN_REPORT };
    const tally = new Tally();
    const out = walkJson(value, { scrub, redactSecretKeys, tally });
    return { value: out, report: tally.report() };
  }

  return { scrub, scrubJson, find };
}

function scrubText(find: Finder, text: string): ScrubbedText {
  let spans = find(text);
  if (spans.length === 0) return { text, report: CLEAN_REPORT };
  const tally = new Tally();
  let out = text;
  for (let pass = 0; pass < MAX_PASSES && spans.length > 0; pass++) {
    for (const s of spans) tally.add(s.kind);
    out = replaceSpans(out, spans);
    spans = find(out);
  }
  return { text: out, report: tally.report() };
}

class Tally {
  private readonly counts: Partial<Record<PiiKind, number>> = {};
  private any = false;

  add(kind: PiiKind, n = 1): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + n;
    this.any = true;
  }

  addReport(r: PiiReport): void {
    for (const [kind, n] of Object.entries(r.counts) as [PiiKind, number | undefined][]) if (n) this.add(kind, n);
  }

  report(): PiiReport {
    return this.any ? { scrubbed: true, counts: { ...this.counts } } : CLEAN_REPORT;
  }
}

interface WalkContext {
  scrub: (text: string) => ScrubbedText;
  redactSecretKeys: boolean;
  tally: Tally;
}

function walkJson(value: Json, ctx: WalkContext): Json {
  if (typeof value === 'string') return scrubString(value, ctx);
  if (typeof value === 'number') return scrubNumber(value, ctx);
  if (Array.isArray(value)) {
    const items = value.map((v) => walkJson(v, ctx));
    return items.every((v, i) => v === value[i]) ? value : items;
  }
  if (value === null || typeof value !== 'object') return value;
  return walkObject(value, ctx);
}

function walkObject(obj: JsonObject, ctx: WalkContext): JsonObject {
  let changed = false;
  const entries: [string, Json][] = [];
  const usedKeys = new Set<string>();
  for (const [key, v] of Object.entries(obj)) {
    const next = ctx.redactSecretKeys && isSecretKeyName(key) ? redactSecretValue(v, ctx) : walkJson(v, ctx);
    const scrubbedKey = uniqueKey(scrubString(key, ctx), usedKeys);
    usedKeys.add(scrubbedKey);
    if (next !== v || scrubbedKey !== key) changed = true;
    entries.push([scrubbedKey, next]);
  }
  // fromEntries defines own properties, so a key such as `__proto__` stays data and never becomes a prototype.
  return changed ? Object.fromEntries(entries) : obj;
}

/** Two keys can scrub to the same placeholder (`{"a@x.io": 1, "b@y.io": 2}`): the later ones get `#2`, `#3` … */
function uniqueKey(key: string, used: ReadonlySet<string>): string {
  if (!used.has(key)) return key;
  let n = 2;
  while (used.has(`${key}#${n}`)) n++;
  return `${key}#${n}`;
}

function redactSecretValue(v: Json, ctx: WalkContext): Json {
  const hidden =
    (typeof v === 'string' && v.trim() !== '' && !PLACEHOLDER_RE.test(v)) || (typeof v === 'number' && Number.isFinite(v));
  if (!hidden) return walkJson(v, ctx);
  ctx.tally.add('secret');
  return PLACEHOLDERS.secret;
}

function scrubString(s: string, ctx: WalkContext): string {
  const r = ctx.scrub(s);
  if (r.report.scrubbed) ctx.tally.addReport(r.report);
  return r.text;
}

/** JSON numbers can carry phone or card numbers (`{"phone": 4155552671}`); only long integers can. */
function scrubNumber(n: number, ctx: WalkContext): Json {
  if (!Number.isInteger(n) || Math.abs(n) < 1_000_000 || Math.abs(n) >= 1e21) return n;
  const r = ctx.scrub(String(n));
  if (!r.report.scrubbed) return n;
  ctx.tally.addReport(r.report);
  return r.text;
}
