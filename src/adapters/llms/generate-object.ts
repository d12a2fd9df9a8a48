/**
 * Structured output over any `Llm`: show the model a JSON Schema through its provider's native mechanism,
 * validate the reply with zod, re-ask once with the validation errors, then give up with LLM_OUTPUT.
 */
import type { z } from 'zod';
import { EngramError, isEngramError, type ErrorIssue } from '../../core/errors.js';
import { issuePath } from '../../core/validate.js';
import type { Llm, LlmMessage, LlmResponse } from '../../ports/llm.js';
import { extractJson, toModelSchema, unwrapValue, withSchemaInstruction, type ModelSchema } from './json-schema.js';

export interface GenerateObjectOptions<T> {
  schema: z.ZodType<T>;
  /** Names the schema (OpenAI) or the tool (Anthropic): 1–64 of `[a-zA-Z0-9_-]`. */
  name: string;
  description?: string;
  system?: string;
  prompt: string;
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  /** OpenAI strict mode. Defaults to on exactly when the schema allows it (all fields required, no extras). */
  strict?: boolean;
}

/** One first ask plus one re-ask: a model that fails twice on the same schema rarely succeeds on a third try. */
const MAX_ASKS = 2;
const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Whether an error means the model gave no usable answer: its output failed the schema on every ask (LLM_OUTPUT), or
 * its provider failed or was out of reach (ADAPTER, UNAVAILABLE). A step backed by a model that has a heuristic
 * counterpart falls back on these, and only on these.
 */
export function noModelAnswer(e: unknown): boolean {
  return isEngramError(e) && (e.code === 'LLM_OUTPUT' || e.code === 'ADAPTER' || e.code === 'UNAVAILABLE');
}

/**
 * `generateObject`, its reply handed to `use`; when the model gives no usable answer (`noModelAnswer`) and there is a
 * `fallback`, the fallback's result instead. Only the model's failure falls back: an error of `use` is thrown.
 */
export async function generateObjectOr<T, R>(llm: Llm, opts: GenerateObjectOptions<T>, use: (reply: T) => R, fallback: (() => Promise<R>) | undefined): Promise<R> {
  let reply: T;
  try {
    reply = await generateObject(llm, opts);
  } catch (e) {
    if (fallback && noModelAnswer(e)) return fallback();
    throw e;
  }
  return use(reply);
}

export async function generateObject<T>(llm: Llm, opts: GenerateObjectOptions<T>): Promise<T> {
  if (!NAME_PATTERN.test(opts.name)) {
    throw new EngramError('VALIDATION', `generateObject: name must match ${NAME_PATTERN.source}`, {
      issues: [{ path: 'name', message: `must match ${NAME_PATTERN.source}` }],
    });
  }
  const modelSchema = toModelSchema(opts.schema);
  const messages: LlmMessage[] = [{ role: 'user', content: opts.prompt }];
  let issues: ErrorIssue[] = [];
  let lastText = '';
  for (let ask = 1; ask <= MAX_ASKS; ask++) {
    const reply = await askOnce(llm, opts, modelSchema, messages);
    lastText = reply.text;
    const checked = validate(opts.schema, modelSchema, reply.text);
    if (checked.ok) return checked.value;
    issues = checked.issues;
    messages.push({ role: 'assistant', content: reply.text.trim() || '(empty reply)' }, { role: 'user', content: reaskPrompt(issues) });
  }
  const first = issues[0]!;
  throw new EngramError(
    'LLM_OUTPUT',
    `${llm.name} (${llm.model}) returned invalid "${opts.name}" output ${MAX_ASKS} times: ${first.path || '(root)'}: ${first.message}`,
    { issues, details: { provider: llm.name, model: llm.model, name: opts.name, attempts: MAX_ASKS, output: lastText.slice(0, 2000) } },
  );
}

function askOnce<T>(llm: Llm, opts: GenerateObjectOptions<T>, ms: ModelSchema, messages: LlmMessage[]): Promise<LlmResponse> {
  const base = { messages: [...messages], maxTokens: opts.maxTokens, temperature: opts.temperature, signal: opts.signal };
  if (llm.completeJson) {
    return llm.completeJson({
      ...base,
      system: opts.system,
      name: opts.name,
      description: opts.description,
      schema: ms.schema,
      strict: opts.strict ?? ms.strictCompatible,
    });
  }
  return llm.complete({ ...base, system: withSchemaInstruction(opts.system, ms.schema) });
}

type Checked<T> = { ok: true; value: T } | { ok: false; issues: ErrorIssue[] };

function validate<T>(schema: z.ZodType<T>, ms: ModelSchema, text: string): Checked<T> {
  let json: unknown;
  try {
    json = extractJson(text);
  } catch (e) {
    return { ok: false, issues: [{ path: '', message: `not valid JSON: ${e instanceof Error ? e.message : String(e)}` }] };
  }
  const parsed = schema.safeParse(unwrapValue(json, ms.wrapped));
  if (parsed.success) return { ok: true, value: parsed.data };
  const prefix = ms.wrapped ? 'value' : '';
  return { ok: false, issues: parsed.error.issues.map((i) => ({ path: issuePath(prefix, i.path), message: i.message })) };
}

function reaskPrompt(issues: readonly ErrorIssue[]): string {
  const lines = issues.slice(0, 20).map((i) => `- ${i.path || '(root)'}: ${i.message}`);
  return `Your reply did not match the required JSON Schema:\n${lines.join('\n')}\nReply again with only the corrected JSON.`;
}
