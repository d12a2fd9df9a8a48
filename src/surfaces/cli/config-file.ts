/**
 * The server's configuration, from four layers: command-line flags > ENGRAM_* environment variables >
 * `engram.config.json` > the schema's defaults. The file is openMemory's options (the same zod schema,
 * core/config.ts) plus a `server` section (surfaces/http/options.ts); every leaf of both has an environment
 * variable named after its path: `retention.episodicTtlDays` → ENGRAM_RETENTION_EPISODIC_TTL_DAYS.
 * ENGRAM_DB, ENGRAM_STORE, ENGRAM_CACHE and PORT are kept as shorter names for the storage URL, cache URL
 * and port. Parsed once, here; everything downstream receives typed, validated values.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { engramConfigSchema } from '../../core/config.js';
import { EngramError } from '../../core/errors.js';
import { parseWith } from '../../core/validate.js';
import { serverOptionsSchema } from '../http/options.js';

export const CONFIG_FILE = 'engram.config.json';

export const serveConfigSchema = engramConfigSchema.extend({ server: serverOptionsSchema.prefault({}) }).strict();
export type ServeConfig = z.output<typeof serveConfigSchema>;

type Obj = Record<string, unknown>;

interface Leaf {
  path: string[];
  env: string;
  /** Strings are taken as written; anything else is read as JSON (numbers, booleans, null, arrays). */
  text: boolean;
}

function defOf(schema: z.ZodType): Obj & { type: string } {
  return (schema as unknown as { _zod: { def: Obj & { type: string } } })._zod.def;
}

const WRAPPERS = new Set(['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch']);
const TEXT_TYPES = new Set(['string', 'enum', 'literal', 'template_literal']);

function collectLeaves(schema: z.ZodType, path: string[], out: Map<string, Leaf>): void {
  const def = defOf(schema);
  if (WRAPPERS.has(def.type)) return collectLeaves(def.innerType as z.ZodType, path, out);
  if (def.type === 'pipe') return collectLeaves(def.in as z.ZodType, path, out);
  if (def.type === 'object') {
    for (const [k, v] of Object.entries((schema as z.ZodObject).shape)) collectLeaves(v as z.ZodType, [...path, k], out);
    return;
  }
  if (def.type === 'union') {
    // A provider union (embedder, reranker, llm): the variables of every variant.
    for (const option of def.options as z.ZodType[]) collectLeaves(option, path, out);
    return;
  }
  const env = envName(path);
  const prior = out.get(env);
  out.set(env, { path, env, text: TEXT_TYPES.has(def.type) && (prior?.text ?? true) });
}

export function envName(path: readonly string[]): string {
  return `ENGRAM_${path.map((p) => p.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()).join('_')}`;
}

/** Every ENGRAM_* variable the server reads, with the config path it sets. */
export function environmentVariables(): Leaf[] {
  const out = new Map<string, Leaf>();
  collectLeaves(serveConfigSchema, [], out);
  return [...out.values()];
}

const ALIASES: { env: string; path: string[]; map?: (v: string) => string }[] = [
  { env: 'ENGRAM_DB', path: ['storage', 'url'], map: (v) => storeUrlOf(v) },
  { env: 'ENGRAM_STORE', path: ['storage', 'url'] },
  { env: 'ENGRAM_CACHE', path: ['cache', 'url'] },
  { env: 'PORT', path: ['server', 'port'] },
];

/** A path means SQLite; anything with a scheme is a storage URL. */
export function storeUrlOf(target: string): string {
  return /^[a-z][a-z0-9+.-]+:/i.test(target) ? target : `sqlite:${target}`;
}

function setPath(obj: Obj, path: readonly string[], value: unknown): void {
  let cur = obj;
  path.slice(0, -1).forEach((k) => {
    if (typeof cur[k] !== 'object' || cur[k] === null) cur[k] = {};
    cur = cur[k] as Obj;
  });
  cur[path[path.length - 1]!] = value;
}

export function configFromEnv(env: NodeJS.ProcessEnv): Obj {
  const out: Obj = {};
  // Aliases first (ENGRAM_DB before ENGRAM_STORE), so the full names win over them.
  for (const a of ALIASES) {
    const v = env[a.env];
    if (v !== undefined && v !== '') setPath(out, a.path, a.path.at(-1) === 'port' ? Number(v) : (a.map?.(v) ?? v));
  }
  for (const leaf of environmentVariables()) {
    const raw = env[leaf.env];
    if (raw === undefined || raw === '') continue;
    let value: unknown = raw;
    if (!leaf.text) {
      try {
        value = JSON.parse(raw);
      } catch {
        throw new EngramError('CONFIG', `${leaf.env} is not valid JSON (a number, true/false, null or an array)`, { issues: [{ path: leaf.env, message: 'invalid value' }] });
      }
    }
    setPath(out, leaf.path, value);
  }
  return out;
}

export function readConfigFile(path: string | undefined, cwd = process.cwd()): { file?: string; config: Obj } {
  const file = path ? resolve(cwd, path) : resolve(cwd, CONFIG_FILE);
  if (!existsSync(file)) {
    if (path) throw new EngramError('CONFIG', `config file ${file} does not exist`, { issues: [{ path: 'config', message: 'no such file' }] });
    return { config: {} };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new EngramError('CONFIG', `config file ${file} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`, { issues: [{ path: file, message: 'invalid JSON' }] });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new EngramError('CONFIG', `config file ${file} must hold a JSON object`, { issues: [{ path: file, message: 'expected an object' }] });
  }
  return { file, config: parsed as Obj };
}

/** Later layers win, key by key; a provider section (`embedder`, `llm` …) changing its provider is replaced whole. */
export function mergeLayers(...layers: Obj[]): Obj {
  const out: Obj = {};
  for (const layer of layers) mergeInto(out, layer);
  return out;
}

function mergeInto(target: Obj, source: Obj): void {
  for (const [k, v] of Object.entries(source)) {
    const cur = target[k];
    const bothObjects = typeof v === 'object' && v !== null && !Array.isArray(v) && typeof cur === 'object' && cur !== null && !Array.isArray(cur);
    const newProvider = bothObjects && 'provider' in (v as Obj) && (v as Obj).provider !== (cur as Obj).provider;
    if (bothObjects && !newProvider) mergeInto(cur as Obj, v as Obj);
    else target[k] = typeof v === 'object' && v !== null && !Array.isArray(v) ? mergeLayers(v as Obj) : v;
  }
}

const PROVIDER_SECTIONS = ['embedder', 'reranker', 'llm'] as const;
const DEFAULT_PROVIDER = (() => {
  const d = serveConfigSchema.parse({});
  return { embedder: d.embedder.provider, reranker: d.reranker.provider, llm: d.llm.provider };
})();

export interface ConfigSources {
  file?: string | undefined;
  flags?: Obj;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export function loadServeConfig(sources: ConfigSources = {}): { config: ServeConfig; file?: string | undefined } {
  const { file, config: fromFile } = readConfigFile(sources.file, sources.cwd);
  const merged = mergeLayers(fromFile, configFromEnv(sources.env ?? process.env), sources.flags ?? {});
  // A provider section given without its provider (ENGRAM_EMBEDDER_WORKERS=0 alone) tunes the default one.
  for (const section of PROVIDER_SECTIONS) {
    const given = merged[section];
    if (given && typeof given === 'object' && !('provider' in given)) merged[section] = { provider: DEFAULT_PROVIDER[section], ...given };
  }
  try {
    return { config: parseWith(serveConfigSchema, merged, { what: 'configuration', code: 'CONFIG' }), file };
  } catch (e) {
    throw e instanceof EngramError ? namingVariables(e) : e;
  }
}

/**
 * A configuration error whose issues also name the variable that sets each path:
 * `embedder.baseUrl: required (ENGRAM_EMBEDDER_BASE_URL)` for a provider chosen without its URL.
 */
export function namingVariables(e: EngramError): EngramError {
  const known = new Set(environmentVariables().map((v) => v.env));
  const issues = e.issues.map(({ path, message }) => {
    const env = envName(path.split('.'));
    return { path, message: known.has(env) ? `${message} (${env})` : message };
  });
  const first = issues[0];
  if (!first) return e;
  return new EngramError(e.code, `invalid configuration: ${first.path || '(root)'}: ${first.message}`, { issues, details: { ...e.details }, cause: e });
}

const SECRET_KEY = /api[-_]?key|secret|password|token/i;

/** The configuration with secrets replaced: API keys, and passwords inside URLs. */
export function maskSecrets(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecrets(v, k)]));
  if (typeof value === 'string' && SECRET_KEY.test(key)) return '***';
  if (typeof value === 'string') return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1***@');
  return value;
}
