/**
 * Time awareness: when the query names a date ("on October 13, 2023", "in July 2023", "last Tuesday",
 * "yesterday"), memories from that time are more likely the ones meant. The date is read by chrono-node,
 * relative to the request's `now`; the window is the named day (or week), month or year (see
 * `queryTimeWindow`), widened by a day on each side (time zones, a session that ran past midnight). Inside it a memory's
 * relevance is multiplied by 1 + TIME_BOOST (capped at 1): a boost, never a filter, so a memory that only
 * mentions the date, or was written down later, can still win on its words, and one that shares nothing with
 * the query stays low however well it is dated. Applied first among the timeline steps (expand.ts), in `search`
 * (hybrid) and `getContext`.
 *
 * The factor can only lift what is already a candidate, and the candidates are the best matches in the whole
 * store: a memory from the named day that shares one word with the query ("order some sushi for tonight" for
 * "What did Audrey eat for dinner on October 24, 2023?") sits behind every better-worded memory of other days.
 * So in hybrid mode the named time is searched as well (semantic.ts: the lexical and the vector index, each
 * filtered to the window, at most 20 hits each), and its hits join the pool scored exactly as the main search
 * would score them. On LoCoMo's 197 questions that name a time: 0.802 → 0.809 recall@10; all questions 0.797 →
 * 0.798 (dev unchanged at 0.823, held-out 0.789 → 0.790); paraphrase-dev unchanged (no dates).
 *
 * Measured on LoCoMo (recall@10, categories 1–4, 1,536 questions with evidence): 175 questions name a time
 * this reads within the conversations' dates (22 more say "last week" or "last year", relative to today, and
 * find nothing). On the 202 questions that mention a month or a year: hybrid 0.618 → 0.726 (dev 0.686 →
 * 0.829). All questions: 0.727 → 0.741 (dev 0.759 → 0.772, held-out 0.717 → 0.731), getContext 0.727 → 0.740;
 * paraphrase-dev unchanged (no dates). Boost 0.3 / 0.5 / 1 / 2 gave 0.735 / 0.738 / 0.741 / 0.741 (dev 0.764 /
 * 0.766 / 0.772 / 0.766); a slack of 0 or 3 days instead of 1 changed nothing.
 *
 * A month or a day without a year ("in June", "on June 5") names no single time: it is ignored rather than
 * guessed.
 *
 * The boost follows how precisely the query names the time: calendar days ("on 3 June, 2023", at most NARROW_DAYS of
 * them) multiply by 1 + DAY_TIME_BOOST; a week, a month, a year, or a day named relative to now ("yesterday",
 * "Monday's errors") by 1 + TIME_BOOST. A named
 * day holds a session or two, a month dozens: the narrower the window, the likelier its memories are the ones meant,
 * and a memory from then that shares few of the query's words ("last week I dropped off that stuff I baked at the
 * homeless shelter" for "What community service did Maria mention on 31 July, 2023?") still trails the better-worded
 * memories of other days under a doubling. Measured on LoCoMo dev in docs/benchmarks.md ("Temporal anchoring").
 */
import { createRequire } from 'node:module';

/** chrono's English parser, loaded on the first query that is read for a date (its locales cost ~100 modules). */
let english: typeof import('chrono-node/en') | undefined;
function chronoEnglish(): typeof import('chrono-node/en') {
  english ??= createRequire(import.meta.url)('chrono-node/en') as typeof import('chrono-node/en');
  return english;
}

export const TIME_BOOST = 1;
/** The boost inside a window of at most NARROW_DAYS named days (see above). */
export const DAY_TIME_BOOST = 4;
/** A window naming at most this many days (before the slack) is a narrow one. */
export const NARROW_DAYS = 3;
const DAY_MS = 86_400_000;
const SLACK_MS = DAY_MS;
const YEAR_RE = /\b\d{4}\b/;
/** Only the first this many characters of a query are read for a date. */
export const MAX_DATE_SCAN_CHARS = 500;

export interface TimeWindow {
  /** Epoch ms, inclusive. */
  start: number;
  /** Epoch ms, exclusive. */
  end: number;
  /** The words of the query that named it. */
  text: string;
  /** Named by a calendar date (day, month and year in the words), not relative to now (see `namesDays`). */
  calendar?: boolean | undefined;
}

/**
 * The first time the query names, as a window; undefined when it names none. What chrono knows for certain
 * sets the width: a day ("on 5 May, 2023", "yesterday", "last Tuesday"; a week when the words say "week"), a
 * month of a known year ("in July 2023"), or a year ("last year"). A month or day without its year is skipped.
 */
export function queryTimeWindow(query: string, now: number): TimeWindow | undefined {
  // chrono's cost grows with the text (~100 ms for 20k characters); a date a query means is in its opening.
  for (const r of chronoEnglish().casual.parse(query.slice(0, MAX_DATE_SCAN_CHARS), new Date(now))) {
    const s = r.start;
    const y = s.get('year')!;
    const m = s.get('month')!;
    const d = s.get('day')!;
    let from: number;
    let to: number;
    let calendar = false;
    if (s.isCertain('day') || s.isCertain('weekday')) {
      // chrono marks relative days ("yesterday") certain too; a calendar date writes its year out.
      calendar = s.isCertain('month') && YEAR_RE.test(r.text);
      if (s.isCertain('month') && !s.isCertain('year')) continue;
      const end = r.end ?? s;
      const week = /\bweeks?\b/i.test(r.text) ? 3 : 0;
      from = Date.UTC(y, m - 1, d - week);
      to = Date.UTC(end.get('year')!, end.get('month')! - 1, end.get('day')! + 1 + week);
    } else if (s.isCertain('month')) {
      if (!s.isCertain('year')) continue;
      from = Date.UTC(y, m - 1, 1);
      to = Date.UTC(y, m, 1);
    } else if (s.isCertain('year')) {
      from = Date.UTC(y, 0, 1);
      to = Date.UTC(y + 1, 0, 1);
    } else {
      continue;
    }
    return { start: from - SLACK_MS, end: to + SLACK_MS, text: r.text, ...(calendar ? { calendar } : {}) };
  }
  return undefined;
}

/**
 * Whether the query names calendar days: a date with its day, month and year ("on 31 July, 2023", "from May 3 to May 5,
 * 2023") spanning at most NARROW_DAYS days. Days named relative to now ("yesterday", "last Tuesday", "Monday's errors",
 * "now") are not: they say when something happened, and the memory telling of it is often written days later, while a
 * calendar date in a question is most often read off the record itself.
 */
export function namesDays(window: Pick<TimeWindow, 'start' | 'end' | 'calendar'>): boolean {
  return window.calendar === true && window.end - window.start - 2 * SLACK_MS <= NARROW_DAYS * DAY_MS;
}

/** The relevance factor for a memory of time `ts`: 1 + DAY_TIME_BOOST or 1 + TIME_BOOST inside the window, else 1. */
export function timeFactor(ts: number, window: TimeWindow | undefined): number {
  if (window === undefined || ts < window.start || ts >= window.end) return 1;
  return 1 + (namesDays(window) ? DAY_TIME_BOOST : TIME_BOOST);
}
