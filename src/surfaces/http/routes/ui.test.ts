import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import type { EngramApp } from '../env.js';
import { parseServerOptions } from '../options.js';
import { startTestServer, type TestServer } from '../server.test-support.js';
import { eventRoutes } from './events.js';
import { uiModule } from './ui.js';

describe('the inspector at /ui', () => {
  let t: TestServer;
  let dir: string;
  let app: EngramApp;
  const appFor = (d: string) =>
    createApp({ memory: t.tm.memory, options: parseServerOptions({}), logger: pino({ level: 'silent' }), isDraining: () => false }, [eventRoutes, uiModule(d)]);

  beforeAll(async () => {
    t = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), 'engram-ui-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>inspector</title>');
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
    app = appFor(dir);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the app without a key, with a same-origin content security policy', async () => {
    const redirect = await app.request('/ui');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/ui/');
    const index = await app.request('/ui/');
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<title>inspector</title>');
    expect(index.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    const js = await app.request('/ui/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
  });

  it('answers unknown paths under /ui with the app, and never opens the API without a key', async () => {
    expect(await (await app.request('/ui/facts')).text()).toContain('<title>inspector</title>');
    for (const path of ['/ui/../v1/events', '/ui/%2e%2e/v1/events', '/v1/events']) {
      const r = await app.request(path);
      if (r.status === 200) expect(await r.text()).not.toMatch(/"events"/);
      else expect(r.status).toBe(401);
    }
  });

  it('says how to build it when dist-ui is missing', async () => {
    const r = await appFor(join(dir, 'nowhere')).request('/ui/');
    expect(r.status).toBe(404);
    expect(((await r.json()) as { error: { message: string } }).error.message).toMatch(/build:ui/);
  });
});
