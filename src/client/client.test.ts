/**
 * The typed client against a real server started in-process (SQLite file, real embedder, a free port): the
 * README's client example run as written, typed errors mapped back from the error table, and retries on 429,
 * 503 and refused connections.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../surfaces/http/server.test-support.js';
import { createEngramClient, EngramError, type EngramClient } from './index.js';
import { retryingFetch } from './retry.js';

let t: TestServer;
let key: string;
let engram: EngramClient;

beforeAll(async () => {
  t = await startTestServer();
  key = await t.keyFor('acme');
  engram = createEngramClient({ baseUrl: t.url, apiKey: key });
});
afterAll(async () => t.close());

/** The README's client example, its import pointed at the source and its server at the test server. */
function readmeExample(): string {
  const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
  const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('createEngramClient'));
  if (!block) throw new EngramError('NOT_FOUND', 'README has no createEngramClient example');
  return block;
}

describe('engram/client', () => {
  it('runs the README example as written against the server, and its writes are there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-readme-'));
    try {
      const source = readmeExample()
        .replace("from 'engram/client'", `from ${JSON.stringify(join(import.meta.dirname, 'index.ts'))}`)
        .replace("'http://localhost:8080'", 'URL');
      const file = join(dir, 'example.ts');
      const imports = source.split('\n').filter((l) => l.startsWith('import '));
      const body = source.split('\n').filter((l) => !l.startsWith('import '));
      writeFileSync(file, `${imports.join('\n')}\nexport default async function run(URL: string, KEY: string) {\n${body.join('\n')}\nreturn { hits, context };\n}\n`);
      const mod = (await import(file)) as { default: (url: string, key: string) => Promise<{ hits: unknown[]; context: { retrieval_id: string } }> };
      const { hits, context } = await mod.default(t.url, key);
      expect(hits.length).toBeGreaterThan(0);
      expect(context.retrieval_id).toMatch(/^ret_/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const events = await engram.listEvents({ task_id: 'deploy_2025_09_20' });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['tool_call', 'outcome']));
    const episodes = await engram.listEpisodes({ task_id: 'deploy_2025_09_20', outcome: 'SUCCESS' });
    expect(episodes.length).toBeGreaterThan(0);
  });

  it('returns typed results for the other areas', async () => {
    const logged = await engram.logEvent({ session_id: 'c1', content: 'the customer prefers email follow-ups' });
    expect(logged).toMatchObject({ session_id: 'c1', duplicate: false });
    const fact = await engram.remember({ key: 'contact_pref', text: 'The customer prefers email.' });
    expect((await engram.factHistory('contact_pref')).map((v) => v.id)).toEqual([fact.fact.id]);
    const proc = await engram.putProcedure({ name: 'Escalate', trigger: 'customer is angry', steps: ['apologise', 'escalate to tier 2'] });
    expect((await engram.recordProcedureOutcome(proc.id, { success: false })).failure_count).toBe(1);
    const fb = await engram.giveFeedback({ query: 'how do I reset my password?', response: 'Use the reset link.', feedback: 'positive' });
    expect(fb.action).toBe('created');
    const edit = await engram.working.append('c1', { content: 'customer id 42' });
    expect((await engram.working.view('c1')).items.map((i) => i.id)).toEqual([edit.item!.id]);
    expect(await engram.whoami()).toMatchObject({ tenant: 'acme' });
  });

  it('throws EngramError with the server code, issues, status and request id', async () => {
    const bad = await engram.logEvent({ content: 'x', type: 'telepathy' as never }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(EngramError);
    expect(bad).toMatchObject({ code: 'VALIDATION', issues: [{ path: 'type' }], details: { status: 400 } });
    expect((bad as EngramError).details.requestId).toEqual(expect.any(String));

    await expect(engram.getEvent('evt_01J8ZK3V6W9X2Y4Z5A6B7C8D9E')).rejects.toMatchObject({ code: 'NOT_FOUND', details: { status: 404 } });
    const stranger = createEngramClient({ baseUrl: t.url, apiKey: 'egm_not_a_key' });
    await expect(stranger.whoami()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(engram.logEvent({ content: 'x', tenant: 'globex' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('retries a rate-limited call until it passes; with retries off it is a LIMIT error', async () => {
    const limited = await startTestServer({ options: { rateLimit: { perSecond: 5, burst: 1 } } });
    try {
      const k = await limited.keyFor('acme');
      const patient = createEngramClient({ baseUrl: limited.url, apiKey: k, baseDelayMs: 50 });
      const results = await Promise.all([patient.whoami(), patient.whoami(), patient.whoami()]);
      expect(results.every((r) => r.tenant === 'acme')).toBe(true);
      const impatient = createEngramClient({ baseUrl: limited.url, apiKey: k, retries: 0 });
      const errors = await Promise.all([impatient.whoami(), impatient.whoami(), impatient.whoami()].map((p) => p.catch((e: unknown) => e)));
      expect(errors.filter((e) => e instanceof EngramError)).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'LIMIT', details: expect.objectContaining({ status: 429 }) })]));
    } finally {
      await limited.close();
    }
  });

  it('retries a 503 after its retry-after, and refused connections, then gives up with UNAVAILABLE', async () => {
    let calls = 0;
    const flaky: Server = createServer((_req, res) => {
      calls++;
      if (calls === 1) res.writeHead(503, { 'retry-after': '0', 'content-type': 'application/json' }).end('{"error":{"code":"UNAVAILABLE","message":"busy","issues":[]}}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"tenant":"acme","key_id":"key_1"}');
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    const port = (flaky.address() as AddressInfo).port;
    try {
      const client = createEngramClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', baseDelayMs: 10 });
      expect(await client.whoami()).toEqual({ tenant: 'acme', key_id: 'key_1' });
      expect(calls).toBe(2);
    } finally {
      await new Promise((resolve) => flaky.close(resolve));
    }
    // The port is closed now: every attempt is refused, retried, and the last failure is UNAVAILABLE.
    let attempts = 0;
    const counting: typeof fetch = (input, init) => {
      attempts++;
      return fetch(input, init);
    };
    const gone = createEngramClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', retries: 2, baseDelayMs: 5, fetch: counting });
    await expect(gone.logEvent({ content: 'x' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(attempts).toBe(3);
  });

  it('does not retry a POST whose connection failed after it may have been sent', async () => {
    let attempts = 0;
    const failing: typeof fetch = () => {
      attempts++;
      return Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } }));
    };
    const f = retryingFetch(failing, { retries: 3, baseDelayMs: 1 });
    await expect(f('http://127.0.0.1:1/v1/feedback', { method: 'POST', body: '{}' })).rejects.toThrow('fetch failed');
    expect(attempts).toBe(1);
    await expect(f('http://127.0.0.1:1/v1/me')).rejects.toThrow('fetch failed');
    expect(attempts).toBe(5);
  });
});
