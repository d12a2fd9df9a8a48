/**
 * The LLM judgements wired from `createMemory`, against an OpenAI-compatible server on loopback: the conflict
 * judge on the read path and the importance rating at ingest (the write-path decider and the consolidation
 * reader are tested in write/facts-strategies.test.ts and engine/distill.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Script } from '../adapters/llms/fake-protocols.test-support.js';
import type { EngramConfigInput } from '../core/config.js';
import { llmMemories } from './llm-memory.test-support.js';

const memories = llmMemories();
afterEach(() => memories.cleanup());

type Body = { messages: { role: string; content: string }[]; response_format?: { json_schema?: { name?: string } } };
const schemaName = (body: Record<string, unknown>) => (body as Body).response_format?.json_schema?.name;
const promptOf = (body: Record<string, unknown>) => (body as Body).messages.find((m) => m.role === 'user')!.content;

const open = (script: Script, config: EngramConfigInput = {}) => memories.open({ indexing: { background: true }, ...config }, script);

describe('the conflict judge from the configured LLM', () => {
  it('is asked about a detected pair and its verdict decides: keep the newer, with its note', async () => {
    const asked: string[] = [];
    const t = await open((body) => {
      if (schemaName(body) !== 'conflict_verdict') return { fail: 400, message: 'not configured in this test' };
      asked.push(promptOf(body));
      return { say: JSON.stringify({ contradicts: true, keep: 'newer', note: 'Erin moved: rely on Munich.' }) };
    });
    await t.memory.remember({ text: 'Erin lives in Berlin.', validFrom: Date.parse('2026-01-01') });
    await t.memory.remember({ text: 'Erin lives in Munich.', validFrom: Date.parse('2026-06-01') });
    await t.memory.flush();
    const ctx = await t.memory.getContext('Where does Erin live?', { episodic_window: { mode: 'none' } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('Newer (2026-06-01): Erin lives in Munich.');
    expect(asked[0]).toContain('Older (2026-01-01): Erin lives in Berlin.');
    expect(ctx.conflicts).toEqual([expect.objectContaining({ action: 'preferred', note: 'Erin moved: rely on Munich.' })]);
    expect(ctx.items.map((i) => i.text)).toEqual(['Erin lives in Munich.']);
  });

  it('says "not a contradiction" and the pair gets no note; a failing model leaves the rules to decide', async () => {
    let up = true;
    const t = await open((body) => {
      if (schemaName(body) !== 'conflict_verdict' || !up) return { fail: 400, message: 'no' };
      return { say: JSON.stringify({ contradicts: false, keep: 'both', note: 'Both can hold.' }) };
    });
    await t.memory.remember({ text: 'Erin lives in Berlin.', validFrom: Date.parse('2026-01-01') });
    await t.memory.remember({ text: 'Erin lives in Munich.', validFrom: Date.parse('2026-06-01') });
    await t.memory.flush();
    expect((await t.memory.getContext('Where does Erin live?', { episodic_window: { mode: 'none' } })).conflicts).toEqual([]);
    up = false;
    const rules = await t.memory.getContext('Where does Erin live now?', { episodic_window: { mode: 'none' } });
    expect(rules.conflicts).toEqual([expect.objectContaining({ reason: 'same_subject_predicate', action: 'surfaced_both' })]);
  });
});

describe('importance rated by the configured LLM', () => {
  it('rates events without an explicit importance (1–10 → 0..1), keeps explicit ones, falls back to content', async () => {
    let up = true;
    const t = await open(
      (body) => {
        if (schemaName(body) !== 'importance_ratings' || !up) return { fail: 400, message: 'no' };
        const n = promptOf(body).split('\n').length;
        return { say: JSON.stringify({ ratings: Array.from({ length: n }, (_, i) => (i === 0 ? 10 : 1)) }) };
      },
      { importance: { method: 'llm' } },
    );
    const [fire, toast, given] = await t.memory.logEvents([
      { type: 'observation', content: 'The house is on fire!' },
      { type: 'observation', content: 'Ate toast' },
      { type: 'observation', content: 'Fed the cat', importance: 0.42 },
    ]);
    expect(fire!.importance).toBe(1);
    expect(toast!.importance).toBe(0.05);
    expect(given!.importance).toBe(0.42);
    up = false;
    const later = await t.memory.logEvent({ type: 'observation', content: 'The house is on fire!', ts: Date.now() + 1 });
    expect(later.importance).toBe(0.7);
  });
});
