/**
 * The inspector's logs, end to end in Chromium: the retrieval log (past getContext calls, why each item was
 * recalled, the outcomes recorded against them, click-through to the playground's look-up and the timeline),
 * the audit log (redactions with their reason, forgets with their counts), and the playground's dropped items
 * with their reason — and none of tenant A's for tenant B. Data is written through the REST API only. Skips
 * without Chromium, except under CI=true.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../src/surfaces/http/server.test-support.js';
import type { LaunchedBrowser } from './browser.js';
import { browserGate, logIn, openInspector, openView, screenshot, seedClosedCases, seriousViolations, startInspectorServer, tabTo } from './support.js';

const { skip, missing } = browserGate();

describe.skipIf(skip)('inspector: retrieval log, audit log, dropped items', () => {
  let t: TestServer;
  let b: LaunchedBrowser;
  let page: Page;
  let keyA: string;
  let keyB: string;
  let call: Awaited<ReturnType<typeof startInspectorServer>>['call'];
  const ids: { failed?: string; helped?: string; redacted?: string } = {};

  beforeAll(async () => {
    const server = await startInspectorServer(missing);
    ({ t, keyA, keyB, call } = server);
    const scope = { user_id: 'alice', session_id: 's-ship', task_id: 'ship-invoices' };
    const logged = await call('POST', '/v1/events/batch', {
      events: [
        'Invoices are sent by the nightly batch at 02:00 UTC',
        'The invoice batch failed: the SMTP relay refused the connection',
        'The SMTP relay for invoices is smtp-2.internal, not smtp-1',
        'Invoice PDFs are rendered with the v2 template',
        'My card number is 4111 1111 1111 1111, please store it',
      ].map((content) => ({ ...scope, type: 'message', actor: 'user', content })),
    });
    ids.redacted = (logged.events as { id: string }[])[4]!.id;
    await call('POST', '/v1/events', { user_id: 'bob', content: 'Bob asked to be forgotten' });
    const ask = async (query: string) => (await call('POST', '/v1/context', { query, scope: { user_id: 'alice' }, task_id: 'ship-invoices' })).retrieval_id as string;
    ids.failed = await ask('which SMTP relay sends the invoices?');
    await call('POST', '/v1/outcomes', { retrieval_id: ids.failed, outcome: 'FAILURE', details: 'mail bounced', correction: 'use smtp-2.internal for invoices' });
    ids.helped = await ask('when does the invoice batch run?');
    await call('POST', '/v1/outcomes', { retrieval_id: ids.helped, outcome: 'SUCCESS' });
    await ask('how are invoice PDFs rendered?');
    await call('POST', `/v1/events/${ids.redacted}/redact`, { reason: 'card number pasted by the user' });
    await call('POST', '/v1/forget', { scope: { user_id: 'bob' } });
    await call('POST', '/v1/context', { query: 'globex merger timeline' }, keyB);

    ({ b, page } = await openInspector(t.url, keyA));
  });

  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  const expectAccessible = async () => expect(await seriousViolations(page)).toEqual([]);

  it('retrieval log: each retrieval with its outcome, why each item was recalled, and click-through to the look-up', async () => {
    await openView(page, 'Retrieval log');
    await expect.poll(() => page.getByTestId('retrievals-count').textContent()).toMatch(/^3 retrievals/);
    // The time filter goes to the API: none from a future time on, both again without it.
    const filters = page.getByRole('form', { name: 'Retrieval filters' });
    await filters.getByLabel('From').fill('2099-01-01T00:00');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => page.getByTestId('retrievals-count').textContent()).toMatch(/^0 retrievals/);
    await filters.getByLabel('From').fill('');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => page.getByTestId('retrievals-count').textContent()).toMatch(/^3 retrievals/);
    const list = page.getByRole('list', { name: 'Retrievals' });
    await list.getByText('SUCCESS', { exact: true }).waitFor();
    await list.getByRole('button').filter({ hasText: 'which SMTP relay' }).click();

    const detail = page.getByTestId('retrieval-detail');
    const outcomes = detail.getByRole('list', { name: 'Outcomes' });
    await outcomes.getByText('FAILURE', { exact: true }).waitFor();
    await outcomes.getByText(/use smtp-2\.internal for invoices/).waitFor();
    await outcomes.getByText(/mail bounced/).waitFor();
    const items = detail.getByTestId('rl-item');
    await expect.poll(() => items.count()).toBeGreaterThan(0);
    await items.first().getByText('relevance').waitFor();
    expect(await items.first().textContent()).toMatch(/final \d\.\d{3}/);
    await expectAccessible();
    await screenshot(page, '10-retrieval-log');

    // By keyboard: from the selected card to the look-up link, which opens the playground on this retrieval.
    await list.getByRole('button', { pressed: true }).focus();
    await tabTo(page, (el) => el.tag === 'a' && el.text === 'open in the playground look-up');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Retrieval playground' }).waitFor();
    await expect.poll(() => page.getByTestId('retrieval').textContent()).toContain('which SMTP relay sends the invoices?');
    await expect.poll(() => page.getByTestId('retrieval').textContent()).toMatch(/final \d\.\d{3}/);

    // And from an item to the event on the timeline.
    await openView(page, 'Retrieval log');
    await list.getByRole('button').filter({ hasText: 'invoice batch run' }).click();
    const eventLink = detail.getByTestId('rl-item').getByRole('link').first();
    const eventId = (await eventLink.textContent())!;
    await eventLink.click();
    await page.getByRole('heading', { level: 1, name: 'Timeline' }).waitFor();
    await page.getByRole('region', { name: 'Event detail' }).getByText(eventId, { exact: true }).waitFor();

    // Did it help? A retrieval without an outcome gets one from the log, and the list shows it.
    await openView(page, 'Retrieval log');
    const pdfs = list.getByRole('button').filter({ hasText: 'invoice PDFs rendered' });
    await pdfs.getByText('no outcome', { exact: true }).waitFor();
    await pdfs.click();
    await detail.getByLabel('Outcome', { exact: true }).selectOption('PARTIAL');
    await detail.getByRole('button', { name: 'Record outcome' }).click();
    await pdfs.getByText('PARTIAL', { exact: true }).waitFor();
    await detail.getByRole('list', { name: 'Outcomes' }).getByText('PARTIAL', { exact: true }).waitFor();
    await expectAccessible();
  });

  it('audit log: the redaction with its reason and the forget with its counts, never the content', async () => {
    await openView(page, 'Audit log');
    await expect.poll(() => page.getByTestId('audit-count').textContent()).toMatch(/^2 audit records/);
    const rows = page.getByTestId('audit-row');
    expect(await rows.nth(0).getByText('forget', { exact: true }).count()).toBe(1);
    const redact = rows.nth(1);
    await redact.getByText('redact', { exact: true }).waitFor();
    await redact.getByText('card number pasted by the user').waitFor();
    await redact.getByRole('link', { name: ids.redacted }).waitFor();
    expect(await page.locator('main').textContent()).not.toContain('4111');
    await expectAccessible();
    await screenshot(page, '11-audit-log');

    // A new redaction shows after Refresh, reached by keyboard.
    const e = await t.call('POST', '/v1/events', { key: keyA, body: { user_id: 'alice', content: 'temporary note' } });
    await t.call('POST', `/v1/events/${(e.body as { id: string }).id}/redact`, { key: keyA, body: { reason: 'not needed' } });
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Audit log' }).focus();
    await tabTo(page, (el) => el.tag === 'button' && el.text === 'Refresh');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('audit-count').textContent()).toMatch(/^3 audit records/);
    await rows.first().getByText('not needed').waitFor();

    // The redacted event opens from its link as a tombstone.
    await rows.filter({ hasText: 'card number pasted' }).getByRole('link', { name: ids.redacted }).click();
    await page.getByRole('heading', { level: 1, name: 'Timeline' }).waitFor();
    await page.getByRole('region', { name: 'Event detail' }).getByText(ids.redacted!, { exact: true }).waitFor();
  });

  it('playground: dropped items with their reason and score breakdown', async () => {
    await openView(page, 'Retrieval playground');
    const form = page.getByRole('form', { name: 'Context request' });
    await form.getByLabel('Query').fill('what went wrong with the invoice emails?');
    await form.getByLabel('User').fill('alice');
    await form.getByLabel('top_k').fill('2');
    await form.getByLabel('episodic window n').fill('0');
    expect(await form.getByLabel('show dropped items').isChecked()).toBe(true);
    await form.getByRole('button', { name: 'Run getContext' }).click();
    const dropped = page.getByRole('list', { name: 'Dropped items' });
    await dropped.waitFor();
    const rows = page.getByTestId('pg-dropped');
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    await rows.first().locator('.badge[class*="reason-"]').waitFor();
    const reasons = await rows.locator('.badge[class*="reason-"]').allTextContents();
    expect(reasons.every((r) => ['budget', 'dedupe', 'conflict', 'mmr', 'floor', 'validity'].includes(r))).toBe(true);
    expect(reasons).toContain('mmr');
    const shown = await page.getByTestId('pg-item').locator('code').allTextContents();
    const droppedIds = await rows.locator('.rid').allTextContents();
    expect(droppedIds.filter((id) => shown.includes(id))).toEqual([]);
    // The score breakdown of a dropped item opens by keyboard.
    await rows.first().locator('summary').focus();
    await page.keyboard.press('Enter');
    await rows.first().getByText('relevance').waitFor();
    await expectAccessible();
    await dropped.scrollIntoViewIfNeeded();
    await page.getByRole('heading', { name: /^Dropped/ }).scrollIntoViewIfNeeded();
    await screenshot(page, '12-playground-dropped');

    // Unchecked: no dropped list.
    await form.getByLabel('show dropped items').uncheck();
    await form.getByRole('button', { name: 'Run getContext' }).click();
    await page.getByTestId('pg-prompt').waitFor();
    await expect.poll(() => page.getByRole('list', { name: 'Dropped items' }).count()).toBe(0);
  });

  it('playground: a case a later case replaced is dropped as superseded, its chip explained', async () => {
    // Two incidents of one cause, closed through the API; the later one states that the answer changed.
    const incidents = [
      { task_id: 'relay-1', report: 'Invoice emails bounced overnight.', cause: 'The invoice mail relay in Dublin refused the connections.' },
      { task_id: 'relay-2', report: 'Invoice emails bounced again overnight.', cause: 'The invoice mail relay moved to Frankfurt, so the Dublin address refused the connections.' },
    ];
    await seedClosedCases({ t, call }, incidents, { user_id: 'carol' });
    await openView(page, 'Retrieval playground');
    const form = page.getByRole('form', { name: 'Context request' });
    await form.getByLabel('Query').fill('invoice emails bounce: the mail relay refused the connections');
    await form.getByLabel('User').fill('carol');
    await form.getByLabel('episodic window n').fill('0');
    if (!(await form.getByLabel('show dropped items').isChecked())) await form.getByLabel('show dropped items').check();
    await form.getByRole('button', { name: 'Run getContext' }).click();
    const chip = page.getByTestId('pg-dropped').locator('.badge.reason-superseded');
    await chip.waitFor();
    // Which of the two: a later case replaced it (`by`), not a correction overturned it.
    const title = await chip.getAttribute('title');
    expect(title).toMatch(/later case of its cause replaced it/);
    expect(title).not.toMatch(/overturned/);
    await expectAccessible();
    await page.getByRole('heading', { name: /^Dropped/ }).scrollIntoViewIfNeeded();
    await screenshot(page, '17-playground-dropped-superseded');
  });

  it("tenant B sees none of tenant A's retrievals or audit records", async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await logIn(page, t.url, keyB);
    const acme = /invoice|smtp|alice|card number|bob/i;
    await openView(page, 'Retrieval log');
    await expect.poll(() => page.getByTestId('retrievals-count').textContent()).toMatch(/^1 retrievals/);
    await page.getByRole('list', { name: 'Retrievals' }).getByText('globex merger timeline').waitFor();
    expect(await page.locator('main').textContent()).not.toMatch(acme);
    await openView(page, 'Audit log');
    await expect.poll(() => page.getByTestId('audit-count').textContent()).toMatch(/^0 audit records/);
    expect(await page.locator('main').textContent()).not.toMatch(acme);
  });
});
