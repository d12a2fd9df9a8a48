/**
 * Runs the relation QA set: each conversation's turns are written to a fresh embedded memory through the public
 * API (the clock at each turn's time), then every question asks getContext and is scored on the first items
 * (bench/fixtures/relations/README.md, "Scoring"). `as_of` is passed when a question has one; if the library
 * refuses it, the run says so and asks without it.
 */
import { isEngramError, type EngramConfigInput, type Memory } from '../../src/index.js';
import { setClock, share, withFreshMemory, type Share } from '../lib/eval-suite.js';
import { matchingAlternative } from '../lib/keywords.js';
import { CATEGORIES, type Hop, type Question, type RelationConversation } from './fixtures.js';

export interface QuestionResult {
  conversation: string;
  question: string;
  id: string;
  category: Question['category'];
  /** 1-based rank of the first item that satisfies each hop, or null when none of the returned items does. */
  hopRanks: (number | null)[];
  top3: boolean;
  finalHopTop3: boolean;
  allHopsTop5: boolean;
  asOfPassed: boolean;
  /** The first three items' text, for reading misses. */
  top: string[];
  error?: string;
}

export interface RelationsReport {
  suite: 'relations';
  conversations: number;
  questions: number;
  entities: number;
  /** `supported` when getContext accepted as_of; `unsupported` when it refused it (as-of questions asked without). */
  asOf: 'supported' | 'unsupported' | 'not asked';
  asOfError?: string;
  top3: Share;
  byCategory: Record<string, { top3: Share; finalHopTop3: Share; allHopsTop5: Share }>;
  finalHopTop3: Share;
  allHopsTop5: Share;
  seconds: number;
  results: QuestionResult[];
}

export interface RunOptions {
  embedder?: EngramConfigInput['embedder'];
  onConversation?: (results: QuestionResult[], c: RelationConversation) => void;
}

const DAY = 86_400_000;

/** The first 1-based rank among `items` that satisfies the hop: an evidence turn's event, or an accepted text. */
export function hopRank(hop: Hop, items: readonly { id: string; text: string }[], eventOf: ReadonlyMap<string, string>): number | null {
  const evidence = new Set(hop.evidence.map((t) => eventOf.get(t)).filter((x): x is string => x !== undefined));
  const at = items.findIndex((it) => evidence.has(it.id) || matchingAlternative(it.text, hop.accept, { ordered: true }) !== undefined);
  return at < 0 ? null : at + 1;
}

export function scoreQuestion(q: Question, items: readonly { id: string; text: string }[], eventOf: ReadonlyMap<string, string>) {
  const hopRanks = q.hops.map((h) => hopRank(h, items, eventOf));
  const within = (r: number | null, k: number) => r !== null && r <= k;
  return {
    hopRanks,
    top3: hopRanks.every((r) => within(r, 3)),
    finalHopTop3: within(hopRanks[hopRanks.length - 1]!, 3),
    allHopsTop5: hopRanks.every((r) => within(r, 5)),
  };
}

export async function runRelations(set: readonly RelationConversation[], opts: RunOptions = {}): Promise<RelationsReport> {
  const started = Date.now();
  const state: AsOfState = { status: 'not asked' };
  const results: QuestionResult[] = [];
  for (const c of set) {
    const rs = await runOne(c, state, opts);
    results.push(...rs);
    opts.onConversation?.(rs, c);
  }
  const entities = new Set(set.flatMap((c) => c.entities.map((e) => `${c.id}\0${e.name.toLowerCase()}`))).size;
  return summarize(set.length, entities, state, results, (Date.now() - started) / 1000);
}

interface AsOfState {
  status: RelationsReport['asOf'];
  error?: string;
}

async function runOne(c: RelationConversation, state: AsOfState, opts: RunOptions): Promise<QuestionResult[]> {
  const clock = setClock();
  return withFreshMemory({ embedder: opts.embedder, clock }, async (memory) => {
    const eventOf = new Map<string, string>();
    for (const t of c.turns) {
      clock.at = Date.parse(t.ts);
      const e = await memory.logEvent({ tenant: c.id, sessionId: t.session, actor: 'user', name: t.speaker, content: t.text, ts: t.ts });
      eventOf.set(t.id, e.id);
    }
    await memory.flush({ learn: true });
    clock.at = Math.max(...c.turns.map((t) => Date.parse(t.ts))) + DAY;
    const out: QuestionResult[] = [];
    for (const q of c.questions) out.push(await ask(memory, c, q, eventOf, state));
    return out;
  });
}

async function ask(memory: Memory, c: RelationConversation, q: Question, eventOf: ReadonlyMap<string, string>, state: AsOfState): Promise<QuestionResult> {
  const base = { conversation: c.id, question: q.question, id: q.id, category: q.category };
  const config = { tenant: c.id, episodic_window: { mode: 'none' as const }, semantic_retrieval: { top_k: 5 }, merge_policy: { token_budget: 4000 } };
  try {
    let asOfPassed = false;
    let ctx;
    if (q.as_of !== undefined && state.status !== 'unsupported') {
      try {
        // as_of is not in the context config's type before the library supports it; the call is the check.
        ctx = await memory.getContext(q.question, { ...config, as_of: q.as_of } as Parameters<Memory['getContext']>[1]);
        asOfPassed = true;
        state.status = 'supported';
      } catch (e) {
        if (!(isEngramError(e) && e.code === 'VALIDATION' && /as_of/.test(JSON.stringify(e.toJSON())))) throw e;
        state.status = 'unsupported';
        state.error = e.message;
      }
    }
    ctx ??= await memory.getContext(q.question, config);
    const items = ctx.items.map((i) => ({ id: i.id, text: i.text }));
    return { ...base, ...scoreQuestion(q, items, eventOf), asOfPassed, top: items.slice(0, 3).map((i) => i.text) };
  } catch (e) {
    return { ...base, hopRanks: q.hops.map(() => null), top3: false, finalHopTop3: false, allHopsTop5: false, asOfPassed: false, top: [], error: e instanceof Error ? e.message : String(e) };
  }
}

function count(rs: readonly QuestionResult[], key: 'top3' | 'finalHopTop3' | 'allHopsTop5'): Share {
  return share(rs.filter((r) => r[key]).length, rs.length);
}

export function summarize(conversations: number, entities: number, state: AsOfState, results: QuestionResult[], seconds: number): RelationsReport {
  const byCategory: RelationsReport['byCategory'] = {};
  for (const cat of CATEGORIES) {
    const rs = results.filter((r) => r.category === cat);
    if (rs.length > 0) byCategory[cat] = { top3: count(rs, 'top3'), finalHopTop3: count(rs, 'finalHopTop3'), allHopsTop5: count(rs, 'allHopsTop5') };
  }
  return {
    suite: 'relations',
    conversations,
    questions: results.length,
    entities,
    asOf: state.status,
    ...(state.error ? { asOfError: state.error } : {}),
    top3: count(results, 'top3'),
    byCategory,
    finalHopTop3: count(results, 'finalHopTop3'),
    allHopsTop5: count(results, 'allHopsTop5'),
    seconds: Math.round(seconds * 10) / 10,
    results,
  };
}
