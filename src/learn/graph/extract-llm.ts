/**
 * Structured entity and relation extraction with an LLM, as Graphiti does: the model reads numbered turns
 * (speaker and text) and returns entities and directed relations as JSON under a schema, each relation citing
 * the turn it comes from. Relations citing a turn that was not shown, or naming an entity it did not list, are
 * dropped. A model that fails to produce valid output falls back to the rules (rules.ts).
 */
import { z } from 'zod';
import { generateObjectOr } from '../../adapters/llms/generate-object.js';
import { nameKey, relationTypeKey } from '../../core/graph.js';
import type { Llm } from '../../ports/llm.js';
import { exclusivity, extractFromTurn, type Extraction, type TurnInput } from './rules.js';

export const llmGraphSchema = z.object({
  entities: z
    .array(
      z.object({
        name: z.string().min(1).describe('The name as written, without possessive ("Alice", "Acme Corp")'),
        type: z.enum(['person', 'place', 'organization', 'date', 'thing']),
      }),
    )
    .max(100),
  relations: z
    .array(
      z.object({
        source: z.string().min(1).describe('Entity name the relation goes from (the subject)'),
        relation: z.string().min(1).describe('snake_case verb phrase, e.g. manages, works_at, lives_in, married_to, likes'),
        target: z.string().min(1).describe('Entity name the relation goes to (the object)'),
        turn: z.number().int().describe('Number of the turn that states it'),
      }),
    )
    .max(200),
});
export type LlmGraph = z.output<typeof llmGraphSchema>;

const SYSTEM = [
  'You extract a knowledge graph from conversation turns.',
  'List the people, places, organisations, dates and notable things named, and the relations the turns state between them.',
  'A relation is directed: "Bob reports to Alice" is {source: "Alice", relation: "manages", target: "Bob"}.',
  '"I" and "my" mean the speaker of that turn. Use canonical relation names: manages, works_at, lives_in, from, married_to,',
  'friend_of, sibling_of, parent_of, likes, prefers, dislikes, owns, uses, depends_on, caused, studies, plays, visited, member_of.',
  'Only relations a turn states; cite its number. Return empty lists when there is nothing.',
].join(' ');

/** One extraction per turn, in input order (the shape the rules return). */
export type TurnExtractor = (turns: readonly TurnInput[]) => Promise<Extraction[]>;

/** The rules, turn by turn; pronouns look back at the previous turn of the same stream (kept across calls, bounded). */
export function ruleExtractor(): TurnExtractor {
  const previous = new Map<string, string[]>();
  return async (turns) =>
    turns.map((t) => {
      const key = t.stream ?? '';
      const x = extractFromTurn(t, previous.get(key) ?? []);
      previous.delete(key);
      previous.set(key, x.people);
      if (previous.size > 10_000) previous.delete(previous.keys().next().value!);
      return x;
    });
}

export function llmExtractor(llm: Llm, opts: { fallback?: TurnExtractor; temperature?: number } = {}): TurnExtractor {
  return async (turns) => {
    if (turns.length === 0) return [];
    const fallback = opts.fallback;
    return generateObjectOr(
      llm,
      {
        schema: llmGraphSchema,
        name: 'knowledge_graph',
        description: 'Entities and directed relations stated in the turns',
        system: SYSTEM,
        prompt: `Turns:\n${turns.map((t, i) => `${i + 1}. ${t.speaker ? `${t.speaker}: ` : ''}${t.text}`).join('\n')}`,
        temperature: opts.temperature ?? 0,
      },
      (reply) => extractions(turns, reply),
      fallback && (() => fallback(turns)),
    );
  };
}

/** Per turn, the relations the model read in it and the entities they join. */
function extractions(turns: Parameters<TurnExtractor>[0], reply: LlmGraph): Extraction[] {
  const types = new Map(reply.entities.map((e) => [nameKey(e.name), e]));
  const out: Extraction[] = turns.map(() => ({ entities: [], relations: [], people: [] }));
  for (const r of reply.relations) {
    const x = out[r.turn - 1];
    const source = types.get(nameKey(r.source));
    const target = types.get(nameKey(r.target));
    const type = relationTypeKey(r.relation);
    if (!x || !source || !target || type === '' || nameKey(source.name) === nameKey(target.name)) continue;
    x.relations.push({ source: source.name, target: target.name, type, text: turns[r.turn - 1]!.text, exclusive: exclusivity(type) });
    for (const e of [source, target]) if (!x.entities.some((y) => nameKey(y.name) === nameKey(e.name))) x.entities.push({ name: e.name, entityType: e.type });
  }
  // Entities no relation cites belong to the first turn that mentions them.
  for (const e of reply.entities) {
    if (out.some((x) => x.entities.some((y) => nameKey(y.name) === nameKey(e.name)))) continue;
    const i = turns.findIndex((t) => t.text.toLowerCase().includes(e.name.toLowerCase()) || nameKey(t.speaker ?? '') === nameKey(e.name));
    if (i >= 0) out[i]!.entities.push({ name: e.name, entityType: e.type });
  }
  return out;
}
