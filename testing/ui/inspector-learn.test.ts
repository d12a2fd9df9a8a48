/**
 * The inspector's views of what Engram learns, end to end in Chromium: episodes with outcomes, corrections and
 * root causes, their causal links (graph and list, click-through to the timeline), procedures with success
 * rates, feedback examples (toggle and delete) and a session's working memory — and none of it for another
 * tenant. Data is written through the REST API only. Skips without Chromium, except under CI=true.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../src/surfaces/http/server.test-support.js';
import type { LaunchedBrowser } from './browser.js';
import { browserGate, logIn, openInspector, openView, screenshot, seriousViolations, startInspectorServer, tabTo } from './support.js';

const { skip, missing } = browserGate();

describe.skipIf(skip)('inspector: episodes, procedures, examples, working memory', () => {
  let t: TestServer;
  let b: LaunchedBrowser;
  let page: Page;
  let keyA: string;
  let keyB: string;
  const ids: { failed?: string; retried?: string } = {};

  beforeAll(async () => {
    const server = await startInspectorServer(missing);
    ({ t, keyA, keyB } = server);
    const { call } = server;
    const scope = { user_id: 'alice', session_id: 's-deploy', task_id: 'deploy-billing' };
    const attempt = async (events: [string, string][], outcome: string, extra: Record<string, unknown>) => {
      await call('POST', '/v1/events/batch', { events: events.map(([type, content]) => ({ ...scope, type, actor: type === 'message' ? 'user' : 'agent', content })) });
      const ctx = await call('POST', '/v1/context', { query: 'how do I deploy the billing service?', scope: { user_id: 'alice', session_id: 's-deploy' }, task_id: 'deploy-billing' });
      const report = await call('POST', '/v1/outcomes', { retrieval_id: ctx.retrieval_id ?? ctx.retrievalId, outcome, ...extra });
      return report.episode_id as string;
    };
    ids.failed = await attempt(
      [
        ['message', 'Deploy the billing service to production'],
        ['decision', 'Use a blue-green deployment'],
        ['error', 'Deploy failed: the health check timed out'],
      ],
      'FAILURE',
      { correction: 'The health check path was /health, not /ready', root_cause: 'wrong health check path' },
    );
    ids.retried = await attempt(
      [
        ['message', 'Retry the billing deploy with the fixed health check'],
        ['decision', 'Point the health check at /health'],
      ],
      'SUCCESS',
      { details: 'billing service live' },
    );
    await call('POST', '/v1/links', { type: 'RETRY_OF', from_id: ids.retried, to_id: ids.failed, evidence: 'same task, after a failure' });
    await call('POST', '/v1/procedures', {
      user_id: 'alice',
      name: 'Deploy the billing service',
      trigger: 'deploying billing to production',
      steps: ['Check the health check path is /health', 'Run the blue-green switch', 'Watch error rates for 10 minutes'],
      success_count: 3,
      failure_count: 1,
    });
    await call('POST', '/v1/feedback', { user_id: 'alice', query: 'How do I roll back billing?', response: 'Switch the router back to the blue stack.', feedback: 'positive' });
    await call('POST', '/v1/feedback', { user_id: 'alice', query: 'Is billing up?', response: 'Probably.', feedback: 'negative', reason: 'vague' });
    const wm = '/v1/sessions/s-deploy/working-memory';
    await call('PUT', `${wm}/plan`, { user_id: 'alice', plan: '1. fix health check 2. redeploy 3. watch' });
    await call('POST', `${wm}/items`, { user_id: 'alice', content: 'Health check lives at /health', kind: 'evidence', source: 'runbook' });
    await call('PUT', `${wm}/entities/service`, { user_id: 'alice', value: 'billing' });
    await call('POST', '/v1/feedback', { query: 'Globex secret?', response: 'Not telling.', feedback: 'positive' }, keyB);

    ({ b, page } = await openInspector(t.url, keyA));
  });

  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  const expectAccessible = async () => expect(await seriousViolations(page)).toEqual([]);

  it('episodes: outcome badges, corrections, root cause, and a causal graph that clicks through', async () => {
    await openView(page, 'Episodes');
    const list = page.getByRole('list', { name: 'Episodes' });
    await list.getByText('FAILURE', { exact: true }).first().waitFor();
    await list.getByText('SUCCESS', { exact: true }).first().waitFor();
    await list.getByRole('button').filter({ hasText: 'SUCCESS' }).first().click();

    const detail = page.getByRole('region', { name: 'Episode detail' });
    await detail.getByTestId('causal-graph').locator('canvas').first().waitFor();
    const links = detail.getByRole('list', { name: 'Links' });
    await links.getByText('RETRY_OF').waitFor();
    await expectAccessible();
    await screenshot(page, '6-episodes');

    await links.getByRole('button', { name: `open ${ids.failed}` }).first().click();
    await detail.getByRole('definition').getByText('wrong health check path', { exact: true }).waitFor();
    await detail.getByRole('heading', { name: 'Corrections' }).waitFor();
    await detail.getByText(/health check path was \/health/).first().waitFor();

    // Click through to one of its events on the timeline.
    const firstEvent = detail.getByRole('list').last().getByRole('link').first();
    const eventId = await firstEvent.textContent();
    await firstEvent.click();
    await page.getByRole('heading', { level: 1, name: 'Timeline' }).waitFor();
    await page.getByRole('region', { name: 'Event detail' }).getByText(eventId!, { exact: true }).waitFor();
  });

  it('procedures: steps and success rate', async () => {
    await openView(page, 'Procedures');
    const card = page.getByTestId('procedure').filter({ hasText: 'Deploy the billing service' });
    await card.getByText('75% success').waitFor();
    await card.getByText('Run the blue-green switch').waitFor();
    await expectAccessible();
    await screenshot(page, '7-procedures');
  });

  it('examples: toggles a verdict and deletes one after confirmation, by keyboard', async () => {
    await openView(page, 'Examples');
    await expect.poll(() => page.getByTestId('examples-count').textContent()).toBe('2 examples');
    await expectAccessible();
    await screenshot(page, '8-examples');
    const rollback = page.getByTestId('example').filter({ hasText: 'roll back billing' });
    await rollback.getByRole('button', { name: 'Mark negative' }).click();
    await expect.poll(() => page.getByTestId('examples-count').textContent()).toContain('flipped');
    await rollback.getByText('− negative').waitFor();

    await page.getByLabel('Verdict').focus();
    await tabTo(page, (el) => el.tag === 'button' && el.text === 'Delete…');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Delete this example?' }).waitFor();
    await tabTo(page, (el) => el.tag === 'button' && el.text === 'Delete example', 3);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('examples-count').textContent()).toMatch(/^1 examples/);
  });

  it('working memory: plan, items, key facts and the prompt text of a session', async () => {
    await openView(page, 'Working memory');
    await page.getByLabel('Session', { exact: true }).fill('s-deploy');
    await page.getByLabel('User', { exact: true }).fill('alice');
    await page.getByRole('button', { name: 'Show scratchpad' }).click();
    await page.getByText('1. fix health check 2. redeploy 3. watch').first().waitFor();
    await page.getByRole('cell', { name: 'Health check lives at /health' }).waitFor();
    await page.getByRole('definition').getByText('billing', { exact: true }).waitFor();
    expect(await page.getByTestId('wm-summary').textContent()).toMatch(/\d+ \/ \d+ tokens/);
    await expectAccessible();
    await screenshot(page, '9-working-memory');
  });

  it("tenant B sees none of tenant A's episodes, procedures, examples or scratchpad", async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await logIn(page, t.url, keyB);
    const acme = /billing|health check|blue-green|alice/i;
    await openView(page, 'Episodes');
    await expect.poll(() => page.getByTestId('episodes-count').textContent()).toMatch(/^0 episodes/);
    await openView(page, 'Procedures');
    await expect.poll(() => page.getByTestId('procedures-count').textContent()).toBe('0 procedures');
    await openView(page, 'Examples');
    await expect.poll(() => page.getByTestId('examples-count').textContent()).toBe('1 examples');
    expect(await page.locator('main').textContent()).not.toMatch(acme);
    await openView(page, 'Working memory');
    await page.getByLabel('Session', { exact: true }).fill('s-deploy');
    await page.getByRole('button', { name: 'Show scratchpad' }).click();
    await page.getByTestId('wm-summary').waitFor();
    expect(await page.locator('main').textContent()).not.toMatch(acme);
  });
});
