/**
 * The server's configuration layers (flags > ENGRAM_* env > engram.config.json > defaults), validated by
 * openMemory's own schema, with secrets masked for printing; and `engram config print` / `serve --help` as a
 * user runs them.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parseEngramConfig } from '../../core/config.js';
import { openTestMemory } from '../../../testing/memory-fixture.js';
import { environmentVariables, envName, loadServeConfig, maskSecrets } from './config-file.js';
import { cliArgs } from '../../../testing/node-entry.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'engram-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeConfig(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

describe('configuration layers', () => {
  it('applies defaults < file < environment < flags, key by key', () => {
    const file = writeConfig('layers.json', {
      storage: { url: 'sqlite:./from-file.db' },
      pii: { enabled: false },
      retention: { episodicTtlDays: 30, sweepIntervalMinutes: 5 },
      server: { port: 7000, rateLimit: { perSecond: 10 } },
    });
    const env = { ENGRAM_RETENTION_SWEEP_INTERVAL_MINUTES: '15', ENGRAM_SERVER_PORT: '7100', ENGRAM_PII_KINDS: '["email","phone"]', ENGRAM_EMBEDDER_WORKERS: '0' };
    const { config } = loadServeConfig({ file, env, flags: { server: { port: 7200 } }, cwd: dir });
    expect(config.storage.url).toBe('sqlite:./from-file.db');
    expect(config.retention).toEqual({ episodicTtlDays: 30, sweepIntervalMinutes: 15 });
    expect(config.pii).toEqual({ enabled: false, kinds: ['email', 'phone'], defaultCountry: 'US' });
    expect(config.embedder).toEqual({ provider: 'use-lite', workers: 0, batchSize: 16 });
    expect(config.server).toMatchObject({ port: 7200, host: '127.0.0.1', rateLimit: { perSecond: 10, burst: 200 } });
  });

  it('reads ./engram.config.json when present and the schema defaults otherwise; the engine part is openMemory’s own config', () => {
    const cwd = mkdtempSync(join(dir, 'cwd-'));
    expect(loadServeConfig({ env: {}, cwd }).config).toMatchObject({ ...parseEngramConfig({}), server: { port: 8080 } });
    writeFileSync(join(cwd, 'engram.config.json'), JSON.stringify({ defaultTenant: 'support', pii: { kinds: ['card', 'secret'] } }));
    const { config, file } = loadServeConfig({ env: {}, cwd });
    expect(file).toBe(join(cwd, 'engram.config.json'));
    // A support agent keeping contact addresses: email is not scrubbed.
    expect(config.pii.kinds).toEqual(['card', 'secret']);
    const { server: _server, ...engine } = config;
    expect(parseEngramConfig(engine)).toEqual(engine);
  });

  it('switches a provider from the environment, and keeps the short names ENGRAM_DB, ENGRAM_STORE, ENGRAM_CACHE', () => {
    const env = {
      ENGRAM_DB: './short.db',
      ENGRAM_CACHE: 'redis://127.0.0.1:6379',
      ENGRAM_LLM_PROVIDER: 'openai-compatible',
      ENGRAM_LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
      ENGRAM_LLM_MODEL: 'llama3',
      ENGRAM_RERANKER_PROVIDER: 'http',
      ENGRAM_RERANKER_BASE_URL: 'http://127.0.0.1:8081',
    };
    const { config } = loadServeConfig({ env, cwd: dir });
    expect(config.storage.url).toBe('sqlite:./short.db');
    expect(config.cache).toMatchObject({ url: 'redis://127.0.0.1:6379' });
    expect(config.llm).toMatchObject({ provider: 'openai-compatible', model: 'llama3', maxRetries: 2 });
    expect(config.reranker).toMatchObject({ provider: 'http', baseUrl: 'http://127.0.0.1:8081' });
    expect(loadServeConfig({ env: { ...env, ENGRAM_STORE: 'pglite:./dir', ENGRAM_STORAGE_URL: 'postgres://h/db' }, cwd: dir }).config.storage.url).toBe('postgres://h/db');
  });

  it('names the failing path for a bad file, a bad variable and a missing file', () => {
    const bad = writeConfig('bad.json', { retention: { sweepIntervalMinutes: -1 }, server: { prot: 1 } });
    expect(() => loadServeConfig({ file: bad, env: {}, cwd: dir })).toThrow(expect.objectContaining({ code: 'CONFIG', issues: expect.arrayContaining([expect.objectContaining({ path: 'retention.sweepIntervalMinutes' })]) }));
    expect(() => loadServeConfig({ env: { ENGRAM_INDEXING_BATCH_SIZE: 'lots' }, cwd: dir })).toThrow(/ENGRAM_INDEXING_BATCH_SIZE/);
    expect(() => loadServeConfig({ file: join(dir, 'missing.json'), env: {}, cwd: dir })).toThrow(/does not exist/);
  });

  it('names the variable of each failing path, and says "required" for a provider chosen without its URL', () => {
    expect(() => loadServeConfig({ env: { ENGRAM_EMBEDDER_PROVIDER: 'openai-compatible', ENGRAM_EMBEDDER_MODEL: 'm' }, cwd: dir })).toThrow(
      expect.objectContaining({
        message: 'invalid configuration: embedder.baseUrl: required (ENGRAM_EMBEDDER_BASE_URL)',
        issues: [{ path: 'embedder.baseUrl', message: 'required (ENGRAM_EMBEDDER_BASE_URL)' }],
      }),
    );
    const bad = writeConfig('unknown.json', { retention: { sweepIntervalMinutes: -1 }, bogus: 1 });
    const issues = (() => {
      try {
        loadServeConfig({ file: bad, env: {}, cwd: dir });
      } catch (e) {
        return (e as { issues: { path: string; message: string }[] }).issues;
      }
      return [];
    })();
    expect(issues.find((i) => i.path === 'retention.sweepIntervalMinutes')?.message).toMatch(/>=0 \(ENGRAM_RETENTION_SWEEP_INTERVAL_MINUTES\)$/);
    expect(issues.find((i) => i.path === '')?.message).toBe('unknown field(s): bogus');
  });

  it('gives every option of the schema its own variable (no two paths share a name)', () => {
    const vars = environmentVariables();
    expect(new Set(vars.map((v) => v.env)).size).toBe(vars.length);
    expect(new Set(vars.map((v) => v.path.join('.'))).size).toBe(vars.length);
    for (const name of ['ENGRAM_STORAGE_URL', 'ENGRAM_CACHE_URL', 'ENGRAM_EMBEDDER_PROVIDER', 'ENGRAM_RERANKER_PROVIDER', 'ENGRAM_LLM_API_KEY', 'ENGRAM_PII_KINDS', 'ENGRAM_RETENTION_EPISODIC_TTL_DAYS', 'ENGRAM_INDEXING_BATCH_SIZE', 'ENGRAM_SERVER_RATE_LIMIT_PER_SECOND']) {
      expect(vars.map((v) => v.env)).toContain(name);
    }
    expect(envName(['learn', 'engine', 'vectorWaitMs'])).toBe('ENGRAM_LEARN_ENGINE_VECTOR_WAIT_MS');
  });

  it("docs/configuration.md's example file is a valid configuration, read as written", () => {
    const doc = readFileSync(join(root, 'docs/configuration.md'), 'utf8');
    const example = JSON.parse(/```json\n([\s\S]*?)```/.exec(doc)![1]!) as Record<string, unknown>;
    const { config } = loadServeConfig({ file: writeConfig('doc-example.json', example), env: {}, cwd: dir });
    expect(config.reranker).toMatchObject({ provider: 'http', model: 'bge-reranker-base' });
    expect(config.pii.kinds).toEqual(['card', 'iban', 'gov_id', 'secret']);
    expect(config.server.rateLimit).toEqual({ perSecond: 50, burst: 100 });
  });

  it('docs/configuration.md names every variable', () => {
    const doc = readFileSync(join(root, 'docs/configuration.md'), 'utf8');
    const missing = environmentVariables().filter((v) => !doc.includes(v.env)).map((v) => v.env);
    expect(missing).toEqual([]);
  });

  it("hands the working-memory section to the memory's scratchpads", async () => {
    const { config } = loadServeConfig({ env: { ENGRAM_WORKING_MAX_TOKENS: '500', ENGRAM_WORKING_HISTORY: 'sliding_window' }, cwd: dir });
    const tm = await openTestMemory({ working: config.working });
    try {
      expect(tm.memory.working.options).toMatchObject({ maxTokens: 500, history: 'sliding_window' });
    } finally {
      await tm.cleanup();
    }
  });

  it('masks API keys and URL passwords', () => {
    expect(maskSecrets({ storage: { url: 'postgres://app:hunter2@db:5432/engram' }, llm: { apiKey: 'sk-123', model: 'm' } })).toEqual({
      storage: { url: 'postgres://app:***@db:5432/engram' },
      llm: { apiKey: '***', model: 'm' },
    });
  });
});

describe('engram config print and serve --help', () => {
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    run(process.execPath, [...cliArgs(), ...args], { cwd: root, env: { PATH: process.env.PATH, ...env } });

  it('prints the effective configuration with secrets masked, flags over environment over file', async () => {
    const file = writeConfig('print.json', { llm: { provider: 'anthropic', model: 'claude-x', apiKey: 'sk-file-secret' }, server: { port: 7000 } });
    const { stdout } = await cli(['--store', 'postgres://app:pw@127.0.0.1/engram', 'config', 'print', '--config', file], { ENGRAM_SERVER_PORT: '7100', ENGRAM_DB: './ignored.db' });
    const printed = JSON.parse(stdout) as { file: string; config: { storage: { url: string }; llm: { apiKey: string; model: string }; server: { port: number } } };
    expect(printed.file).toBe(file);
    expect(printed.config.storage.url).toBe('postgres://app:***@127.0.0.1/engram');
    expect(printed.config.llm).toMatchObject({ model: 'claude-x', apiKey: '***' });
    expect(printed.config.server.port).toBe(7100);
    expect(stdout).not.toContain('sk-file-secret');
  }, 60_000);

  it('serve --help lists the variables with their defaults', async () => {
    const { stdout } = await cli(['serve', '--help']);
    expect(stdout).toMatch(/ENGRAM_RETENTION_SWEEP_INTERVAL_MINUTES\s+retention\.sweepIntervalMinutes \(default: 60\)/);
    expect(stdout).toMatch(/ENGRAM_SERVER_RATE_LIMIT_PER_SECOND\s+server\.rateLimit\.perSecond \(default: 100\)/);
    expect(stdout).toContain('engram.config.json');
  }, 60_000);
});
