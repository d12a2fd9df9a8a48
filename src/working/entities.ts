/**
 * Seed 002's entity extraction: key variables of the session ("User Name: Alice", "Goal: Fix bug") kept in a
 * state dictionary, so the essentials survive when the turns that stated them are folded away. A later value
 * for a key replaces the earlier one (the dictionary is the current state, not a history).
 *
 * The heuristic extractor reads first-person statements from the user ("my name is …", "I need to …",
 * "I'm using …", "deadline is Friday") and explicit `Key: value` lines from anyone. The LLM extractor is given
 * the current dictionary and the new turn and returns updates; it falls back to the heuristic one.
 */
import { z } from 'zod';
import { generateObject, noModelAnswer } from '../adapters/llms/generate-object.js';
import type { Llm } from '../ports/llm.js';
import { clip, tidy } from '../learn/text.js';
import type { WmEntity, WmTurn } from './state.js';

export interface EntityUpdate {
  key: string;
  value: string;
}

export interface EntityExtractor {
  readonly name: string;
  extract(turn: WmTurn, current: readonly WmEntity[]): Promise<EntityUpdate[]>;
}

const MAX_VALUE_CHARS = 120;
const MAX_KEY_CHARS = 40;

interface Pattern {
  key: string;
  re: RegExp;
  /** Only from the user's own turns (first-person statements). */
  userOnly: boolean;
  /** A proper name: only the capitalised words the capture opens with count ("Alice and I …" → "Alice"). */
  proper?: boolean;
}

const DAY = String.raw`(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|tonight|end of (?:the )?(?:day|week|month|quarter)|\d{4}-\d{2}-\d{2}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}`;

const PATTERNS: readonly Pattern[] = [
  { key: 'User Name', re: /\b(?:my name is|call me|i am|i['’]m)\s+(\p{L}[\p{L}'’-]*(?:\s+\p{L}[\p{L}'’-]*)?)/iu, userOnly: true, proper: true },
  {
    key: 'Goal',
    re: /\b(?:i (?:want|need|would like|['’]d like|have) to|i['’]?m trying to|i am trying to|my goal is(?: to)?|the goal is(?: to)?|help me(?: to)?|we need to)\s+([^.!?\n]{3,160})/i,
    userOnly: true,
  },
  { key: 'Location', re: /\bi (?:live|am based|['’]m based|am located) in (\p{L}[\p{L}.'-]*(?:\s+\p{L}[\p{L}.'-]*){0,3})/iu, userOnly: true, proper: true },
  { key: 'Employer', re: /\bi work (?:at|for) (\p{L}[\w&.'-]*(?:\s+[\w&.'-]+){0,3})/iu, userOnly: true, proper: true },
  { key: 'Preference', re: /\bi (?:prefer|always use|usually use|like to use)\s+([^.!?\n]{2,100})/i, userOnly: true },
  { key: 'Using', re: /\b(?:i['’]?m using|i am using|i use|we use|we['’]re using|we are using|running on)\s+([^.!?,;\n]{2,80})/i, userOnly: true },
  { key: 'Deadline', re: new RegExp(String.raw`\b(?:deadline is|due(?: by| on)?|needs? to be done by|by|before)\s+(${DAY})\b`, 'i'), userOnly: true },
  { key: 'Error', re: /\b((?:E[A-Z]{4,}|ERR_[A-Z0-9_]+|[A-Z][A-Za-z]+(?:Error|Exception))\b(?:[^.\n]|\.(?=\S)){0,60})/, userOnly: false },
];

/** "Budget: $500", "Next step: deploy": a line opening with a capitalised label of one to three words. */
const KEY_VALUE = /^\s*([A-Z][A-Za-z]*(?: [A-Za-z]+){0,2})\s*:\s*(\S.{0,200})$/gm;
const NOT_KEYS = new Set(['http', 'https', 'note', 'user', 'agent', 'tool', 'system', 'assistant', 'q', 'a', 'example']);
/** A label opening with one of these is a sentence with a colon ("I found the cause: …"), not a key. */
const SENTENCE_OPENERS = new Set('i we you it this that he she they there here my our your so but and then now also'.split(' '));

/** Capitalised words that follow "I'm" without being a name ("I'm Sorry", "I'm Not sure"). */
const NOT_NAMES = new Set(
  'sorry not also just still really here back done good fine ok okay trying using going looking working new sure glad happy afraid the a an'.split(' '),
);

function properName(captured: string | undefined): string | undefined {
  const words: string[] = [];
  for (const w of captured?.split(/\s+/) ?? []) {
    if (!/^\p{Lu}/u.test(w)) break;
    words.push(w);
  }
  if (words.length === 0 || NOT_NAMES.has(words[0]!.toLowerCase())) return undefined;
  return words.join(' ');
}

function cleanValue(v: string): string {
  return clip(tidy(v), MAX_VALUE_CHARS);
}

export function extractEntitiesHeuristically(turn: WmTurn): EntityUpdate[] {
  const found = new Map<string, string>();
  for (const p of PATTERNS) {
    if (p.userOnly && turn.role !== 'user') continue;
    const m = p.re.exec(turn.content);
    const v = p.proper ? properName(m?.[1]) : m?.[1];
    if (!v) continue;
    const value = cleanValue(v);
    if (value) found.set(p.key, p.key === 'Goal' ? value.charAt(0).toUpperCase() + value.slice(1) : value);
  }
  for (const m of turn.content.matchAll(KEY_VALUE)) {
    const key = tidy(m[1]!);
    if (NOT_KEYS.has(key.toLowerCase()) || SENTENCE_OPENERS.has(key.split(' ')[0]!.toLowerCase()) || key.length > MAX_KEY_CHARS) continue;
    const value = cleanValue(m[2]!);
    if (value) found.set(key, value);
  }
  return [...found].map(([key, value]) => ({ key, value }));
}

export class HeuristicEntityExtractor implements EntityExtractor {
  readonly name = 'heuristic';
  async extract(turn: WmTurn): Promise<EntityUpdate[]> {
    return extractEntitiesHeuristically(turn);
  }
}

export const llmEntitiesSchema = z.object({
  updates: z
    .array(
      z.object({
        key: z.string().min(1).max(MAX_KEY_CHARS).describe('short Title Case label, e.g. "User Name", "Goal", "Deadline"'),
        value: z.string().min(1).max(200).describe('the current value, as short as possible'),
      }),
    )
    .max(10),
});

const SYSTEM = [
  'You keep the state dictionary of an agent’s working session: the essential variables, such as',
  '"User Name: Alice" or "Goal: Fix bug". Read the new turn and return only entries it adds or changes.',
  'Reuse an existing key when the turn updates it. Return no entries when the turn states nothing durable.',
].join(' ');

export class LlmEntityExtractor implements EntityExtractor {
  readonly name: string;
  constructor(
    private readonly llm: Llm,
    private readonly fallback: EntityExtractor = new HeuristicEntityExtractor(),
  ) {
    this.name = `llm:${llm.name}/${llm.model}`;
  }

  async extract(turn: WmTurn, current: readonly WmEntity[]): Promise<EntityUpdate[]> {
    const dict = current.length ? current.map((e) => `${e.key}: ${e.value}`).join('\n') : '(empty)';
    try {
      const reply = await generateObject(this.llm, {
        schema: llmEntitiesSchema,
        name: 'state_updates',
        description: 'Entries of the session state dictionary the turn adds or changes',
        system: SYSTEM,
        prompt: `Current state:\n${dict}\n\nNew turn (${turn.role}):\n${clip(turn.content, 2000)}`,
        temperature: 0,
      });
      return reply.updates.map((u) => ({ key: clip(tidy(u.key), MAX_KEY_CHARS), value: cleanValue(u.value) })).filter((u) => u.key && u.value);
    } catch (e) {
      if (noModelAnswer(e)) {
        return this.fallback.extract(turn, current);
      }
      throw e;
    }
  }
}

/** Applies updates: an existing key (case-insensitive) takes the new value; beyond `max`, the stalest go. */
export function mergeEntities(current: readonly WmEntity[], updates: readonly EntityUpdate[], at: number, max: number): WmEntity[] {
  const out = current.map((e) => ({ ...e }));
  for (const u of updates) {
    const existing = out.find((e) => e.key.toLowerCase() === u.key.toLowerCase());
    if (existing) {
      if (existing.value !== u.value) Object.assign(existing, { value: u.value, updatedAt: at });
    } else {
      out.push({ key: u.key, value: u.value, updatedAt: at });
    }
  }
  if (out.length <= max) return out;
  const keep = new Set([...out].sort((a, b) => b.updatedAt - a.updatedAt).slice(0, max));
  return out.filter((e) => keep.has(e));
}
