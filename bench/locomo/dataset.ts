/**
 * LoCoMo (snap-research, CC BY-NC 4.0) as the benchmark reads it: conversations of dated sessions of turns,
 * and QA items with evidence dialog ids. The file is read at run time and never copied into the repository.
 * Evidence ids are messy in the released file (see ../shared/research/datasets.md): parsing is tolerant and
 * counts what it had to skip instead of failing.
 */
import { readFileSync } from 'node:fs';
import * as chrono from 'chrono-node';
import { EngramError } from '../../src/index.js';

export interface LocomoTurn {
  diaId: string;
  speaker: string;
  text: string;
  session: number;
  /** Epoch ms of the session's date-time (turns of a session are spaced a second apart). */
  ts: number;
}

export interface LocomoQuestion {
  question: string;
  category: number;
  /** Normalised, de-duplicated evidence ids that name a real turn of the conversation. */
  evidence: string[];
  /** Raw evidence tokens that could not be used (malformed or pointing at no turn). */
  skipped: string[];
  /** Epoch ms of the question's own date (`question_date`, `date` or `asked_at`), when the data has one. */
  askedAt?: number | undefined;
}

export interface LocomoConversation {
  id: string;
  turns: LocomoTurn[];
  questions: LocomoQuestion[];
}

/** Conversations used for tuning; every other one is held out. */
export const DEV_SPLIT: readonly string[] = ['conv-26', 'conv-30', 'conv-41'];

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/**
 * A date-time in any common form, as UTC epoch ms: LoCoMo's `"1:56 pm on 8 May, 2023"`, LongMemEval's
 * `"2023/05/20 (Sat) 04:03"`, ISO 8601, `"May 20, 2023"` … (chrono-node; a weekday in parentheses is dropped
 * first, it hides the time from the parser). Undefined when the string names no date.
 */
export function parseSessionDate(s: string): number | undefined {
  const m = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$/i.exec(s);
  const month = m ? MONTHS.indexOf(m[5]!.toLowerCase()) : -1;
  if (m && month >= 0) {
    let hour = Number(m[1]) % 12;
    if (m[3]!.toLowerCase() === 'pm') hour += 12;
    return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
  }
  const cleaned = s.replace(/\(\s*[A-Za-z]{3,9}\.?\s*\)/g, ' ').replace(/\s+/g, ' ').trim();
  const found = chrono.parse(cleaned, { instant: new Date(Date.UTC(2000, 0, 1)), timezone: 'UTC' })[0];
  if (!found || !found.start.isCertain('year')) return undefined;
  return found.start.date().getTime();
}

/**
 * Splits raw evidence strings into dia ids: `"D8:6; D9:17"` and space-joined lists become several ids,
 * `"D30:05"` becomes `"D30:5"`; `"D"`, `"D:11:26"` and ids of turns that do not exist are skipped.
 */
export function parseEvidence(raw: readonly unknown[], known: ReadonlySet<string>): { ids: string[]; skipped: string[] } {
  const ids = new Set<string>();
  const skipped: string[] = [];
  for (const item of raw) {
    if (typeof item !== 'string') {
      skipped.push(String(item));
      continue;
    }
    for (const token of item.split(/[;,\s]+/).filter((t) => t !== '')) {
      const m = /^D(\d+):(\d+)$/.exec(token);
      const id = m ? `D${Number(m[1])}:${Number(m[2])}` : undefined;
      if (id && known.has(id)) ids.add(id);
      else skipped.push(token);
    }
  }
  return { ids: [...ids], skipped };
}

/** The session number of a dia id (`D12:3` → 12). */
export function sessionOf(diaId: string): number {
  return Number(/^D(\d+):/.exec(diaId)?.[1] ?? NaN);
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = Record<string, Json>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function invalid(path: string, message: string): EngramError {
  return new EngramError('VALIDATION', `LoCoMo data: ${path}: ${message}`, { issues: [{ path, message }] });
}

/** Parses the LoCoMo JSON list (already decoded). */
export function parseLocomo(data: unknown): LocomoConversation[] {
  if (!Array.isArray(data)) throw invalid('$', 'expected a list of samples');
  return data.map((sample, i) => parseSample(sample, `[${i}]`));
}

function parseSample(sample: unknown, path: string): LocomoConversation {
  if (!isObj(sample)) throw invalid(path, 'expected an object');
  const id = typeof sample.sample_id === 'string' ? sample.sample_id : `sample-${path}`;
  const conv = sample.conversation;
  if (!isObj(conv)) throw invalid(`${path}.conversation`, 'expected an object');
  const sessions = Object.keys(conv)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  const turns: LocomoTurn[] = [];
  for (const n of sessions) {
    const list = conv[`session_${n}`];
    if (!Array.isArray(list)) continue;
    const when = conv[`session_${n}_date_time`];
    // Sessions without a parsable date keep their order: one day after the previous session.
    const base = (typeof when === 'string' ? parseSessionDate(when) : undefined) ?? (turns.at(-1)?.ts ?? Date.UTC(2023, 0, 1)) + 86_400_000;
    list.forEach((t, j) => {
      if (!isObj(t) || typeof t.dia_id !== 'string' || typeof t.text !== 'string') return;
      const caption = typeof t.blip_caption === 'string' ? ` [shares a photo: ${t.blip_caption}]` : '';
      const text = `${t.text}${caption}`.trim();
      if (text === '') return;
      turns.push({ diaId: t.dia_id, speaker: typeof t.speaker === 'string' ? t.speaker : 'unknown', text, session: n, ts: base + j * 1000 });
    });
  }
  const known = new Set(turns.map((t) => t.diaId));
  const qa = Array.isArray(sample.qa) ? sample.qa : [];
  const questions = qa.filter(isObj).flatMap((q): LocomoQuestion[] => {
    if (typeof q.question !== 'string' || typeof q.category !== 'number') return [];
    const { ids, skipped } = parseEvidence(Array.isArray(q.evidence) ? q.evidence : [], known);
    const dated = [q.question_date, q.date, q.asked_at].find((d): d is string => typeof d === 'string');
    const askedAt = dated === undefined ? undefined : parseSessionDate(dated);
    return [{ question: q.question, category: q.category, evidence: ids, skipped, ...(askedAt === undefined ? {} : { askedAt }) }];
  });
  return { id, turns, questions };
}

export function loadLocomo(path: string): LocomoConversation[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new EngramError('NOT_FOUND', `LoCoMo data file not found: ${path} (pass --data FILE)`, { cause });
  }
  try {
    return parseLocomo(JSON.parse(text) as unknown);
  } catch (cause) {
    if (cause instanceof EngramError) throw cause;
    throw new EngramError('VALIDATION', `LoCoMo data file is not valid JSON: ${path}`, { cause, issues: [{ path: 'data', message: 'invalid JSON' }] });
  }
}
