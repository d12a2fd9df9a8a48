/**
 * The score breakdown's named changes in the inspector, end to end in Chromium: closed cases learned round by
 * round (retrieve, log, record the outcome with its root cause), then a report that says its trouble followed a
 * change. The case that followed none but reads closest is placed just below the one that followed a change, and
 * its breakdown shows the `situation` bar with what its final score fell by (negative, drawn as a fall, with a
 * tooltip saying why). Data is written through the REST API only. Skips without Chromium, except under CI=true.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../src/surfaces/http/server.test-support.js';
import type { LaunchedBrowser } from './browser.js';
import { browserGate, openInspector, openView, screenshot, seedClosedCases, seriousViolations, startInspectorServer } from './support.js';

const { skip, missing } = browserGate();

const ROUNDS = [
  { report: 'Checkout returns 500 errors during the evening peak.', note: 'All 50 database connections are in use.', cause: 'Database connection pool exhausted under peak load', outcome: 'FAILURE' },
  { report: 'Checkout returns 500 errors when traffic doubles.', note: 'The pool waits for a free connection for 30 s.', cause: 'Connection pool too small for peak traffic', outcome: 'FAILURE' },
  { report: 'Search results are empty since the new index settings were deployed.', note: 'The settings dropped the product field.', cause: 'The product field missing from the search index', outcome: 'FAILURE' },
];
const QUERY = 'Checkout returns 500 errors during the evening peak since the 2.5 release was rolled out.';

describe.skipIf(skip)('inspector: the score breakdown names what the situation step took off', () => {
  let t: TestServer;
  let b: LaunchedBrowser;
  let page: Page;

  beforeAll(async () => {
    const server = await startInspectorServer(missing);
    t = server.t;
    await seedClosedCases(server, ROUNDS.map((r, i) => ({ ...r, task_id: `round-${i + 1}` })));
    ({ b, page } = await openInspector(t.url, server.keyA));
  }, 120_000);

  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  it('playground: the moved case shows a negative `situation` bar, drawn as a fall and explained', async () => {
    await openView(page, 'Retrieval playground');
    const form = page.getByRole('form', { name: 'Context request' });
    await form.getByLabel('Query').fill(QUERY);
    await form.getByLabel('episodic window n').fill('0');
    await form.getByRole('button', { name: 'Run getContext' }).click();
    const moved = page.getByTestId('pg-item').filter({ has: page.locator('dl.scores dt', { hasText: /^situation$/ }) });
    await expect.poll(() => moved.count()).toBeGreaterThan(0);
    const row = moved.first().locator('dl.scores > div').filter({ has: page.locator('dt', { hasText: /^situation$/ }) });
    const value = Number((await row.locator('dd').textContent())!.replace('−', '-'));
    expect(value).toBeLessThan(0);
    expect(await row.locator('.bar.fall').count()).toBe(1);
    expect(await row.locator('dt').getAttribute('title')).toMatch(/fell by/);
    // Every other bar of the breakdown is a rise, drawn as one.
    expect(await moved.first().locator('dl.scores .bar.fall').count()).toBe(1);
    expect(await moved.first().textContent()).toContain('Checkout returns 500 errors');
    expect(await seriousViolations(page)).toEqual([]);
    await moved.first().scrollIntoViewIfNeeded();
    await screenshot(page, '17-playground-situation');
  });
});
