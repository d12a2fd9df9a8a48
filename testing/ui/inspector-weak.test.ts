/**
 * The relevance floor's middle tier in the inspector, end to end in Chromium: a query about nothing in the store
 * but near enough to keep a few memories (the floor's weak verdict) shows each of them as a "weak match" — in the
 * playground's items and score breakdowns, in the retrieval log and in the playground's look-up — and a query the
 * store answers shows none. Data is written through the REST API only. Skips without Chromium, except under CI=true.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../src/surfaces/http/server.test-support.js';
import type { LaunchedBrowser } from './browser.js';
import { browserGate, openInspector, openView, screenshot, seriousViolations, startInspectorServer } from './support.js';

const { skip, missing } = browserGate();

/** A small support-desk store; USE-lite puts the off-topic query below at 0.3–0.42 from some of it (floor.ts). */
const STORE = [
  'Annual plans are refunded in full within 30 days.',
  'Support hours are 9:00 to 17:00 CET on weekdays.',
  'Node 22 requires OpenSSL 3 and drops some legacy crypto flags.',
  'The CI pipeline runs the integration tests on every pull request.',
];
const OFF_TOPIC = 'quantum chromodynamics lattice gauge';
const ON_TOPIC = 'Can I get my money back on a yearly plan?';
const WEAK_ITEMS = 3; // the relevance floor's default weak_items

describe.skipIf(skip)('inspector: weak matches of the relevance floor', () => {
  let t: TestServer;
  let b: LaunchedBrowser;
  let page: Page;

  beforeAll(async () => {
    const server = await startInspectorServer(missing);
    t = server.t;
    for (const text of STORE) await server.call('POST', '/v1/facts', { text });
    await t.tm.memory.flush();
    ({ b, page } = await openInspector(t.url, server.keyA));
  });

  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  const run = async (query: string) => {
    const form = page.getByRole('form', { name: 'Context request' });
    await form.getByLabel('Query').fill(query);
    await form.getByLabel('episodic window n').fill('0');
    const summary = page.getByTestId('pg-summary');
    const before = (await summary.count()) ? await summary.textContent() : null;
    await form.getByRole('button', { name: 'Run getContext' }).click();
    // Each run has a retrieval id of its own, shown in the summary.
    await expect.poll(async () => ((await summary.count()) ? await summary.textContent() : null)).not.toBe(before);
  };

  it('playground: an off-topic query keeps a few items, each tagged "weak match" with the reason in its breakdown', async () => {
    await openView(page, 'Retrieval playground');
    await run(OFF_TOPIC);
    const items = page.getByTestId('pg-item');
    await expect.poll(() => items.count()).toBeGreaterThan(0);
    const n = await items.count();
    expect(n).toBeLessThanOrEqual(WEAK_ITEMS);
    for (let i = 0; i < n; i++) {
      const item = items.nth(i);
      expect(await item.locator('.ihead').getByTestId('weak-match').textContent()).toBe('weak match');
      await item.locator('dl.scores').getByText('kept only because nothing closer was found').waitFor();
    }
    expect(await page.getByTestId('pg-prompt').textContent()).toContain('weak match');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '15-playground-weak-match');
  });

  it('playground: a query the store answers is not marked weak', async () => {
    await run(ON_TOPIC);
    await page.getByTestId('pg-item').filter({ hasText: 'Annual plans are refunded in full within 30 days.' }).waitFor();
    expect(await page.getByTestId('weak-match').count()).toBe(0);
    expect(await page.getByTestId('pg-prompt').textContent()).not.toContain('weak match');
  });

  it('retrieval log and look-up: the off-topic retrieval keeps its weak matches, the answered one none', async () => {
    await openView(page, 'Retrieval log');
    const list = page.getByRole('list', { name: 'Retrievals' });
    const detail = page.getByTestId('retrieval-detail');
    await list.getByRole('button').filter({ hasText: 'money back' }).click();
    await expect.poll(() => detail.getByTestId('rl-item').count()).toBeGreaterThan(0);
    expect(await detail.getByTestId('weak-match').count()).toBe(0);

    await list.getByRole('button').filter({ hasText: 'quantum' }).click();
    const items = detail.getByTestId('rl-item');
    await expect.poll(() => items.count()).toBeGreaterThan(0);
    const n = await items.count();
    await expect.poll(() => detail.getByTestId('weak-match').count()).toBe(n);
    await items.first().getByText('kept only because nothing closer was found').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '16-retrieval-log-weak-match');

    await detail.getByRole('link', { name: 'open in the playground look-up' }).click();
    await page.getByRole('heading', { level: 1, name: 'Retrieval playground' }).waitFor();
    const found = page.getByTestId('retrieval');
    await expect.poll(() => found.textContent()).toContain(OFF_TOPIC);
    await expect.poll(() => found.getByTestId('weak-match').count()).toBe(n);
  });
});
