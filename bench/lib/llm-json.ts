/**
 * The bench's own structured-output call: a JSON object validated with zod, one re-ask when the reply is not
 * valid. Uses the provider's native JSON mode (`completeJson`) when it has one, else plain completion with the
 * schema in the prompt. Kept here rather than borrowed from the product, so the judge shares no code with it.
 */
import { z } from 'zod';
import type { Llm } from '../../src/index.js';

export interface JsonCall<T> {
  schema: z.ZodType<T>;
  name: string;
  system: string;
  prompt: string;
  maxTokens: number;
  temperature?: number;
}

function parseReply<T>(schema: z.ZodType<T>, text: string): { ok: true; value: T } | { ok: false; problem: string } {
  const body = /\{[\s\S]*\}/.exec(text)?.[0];
  if (!body) return { ok: false, problem: 'the reply holds no JSON object' };
  let json: unknown;
  try {
    json = JSON.parse(body) as unknown;
  } catch {
    return { ok: false, problem: 'the reply is not valid JSON' };
  }
  const r = schema.safeParse(json);
  return r.success ? { ok: true, value: r.data } : { ok: false, problem: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
}

export async function callForJson<T>(llm: Llm, call: JsonCall<T>): Promise<T> {
  const jsonSchema = z.toJSONSchema(call.schema, { io: 'input' }) as Record<string, unknown>;
  delete jsonSchema.$schema;
  const ask = async (prompt: string) => {
    const base = { system: call.system, messages: [{ role: 'user' as const, content: prompt }], maxTokens: call.maxTokens, temperature: call.temperature ?? 0 };
    if (llm.completeJson) return (await llm.completeJson({ ...base, name: call.name, schema: jsonSchema, strict: true })).text;
    return (await llm.complete({ ...base, messages: [{ role: 'user', content: `${prompt}\n\nAnswer with one JSON object matching this schema:\n${JSON.stringify(jsonSchema)}` }] })).text;
  };
  const first = parseReply(call.schema, await ask(call.prompt));
  if (first.ok) return first.value;
  const second = parseReply(call.schema, await ask(`${call.prompt}\n\nYour previous answer was invalid (${first.problem}). Answer again with valid JSON only.`));
  if (second.ok) return second.value;
  throw new Error(`LLM ${llm.name}/${llm.model} gave no valid ${call.name} after one re-ask: ${second.problem}`);
}
