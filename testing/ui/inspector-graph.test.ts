/**
 * The inspector's entities and relations view, end to end in Chromium: the knowledge graph drawn with
 * Cytoscape, entity detail with aliases, observations and relations, and the "as of" time control reading the
 * graph as Engram knew it (a move closes the old "lives in" edge) and as it held in the world — and none of it
 * for another tenant. Data is written through the REST API only. Skips without Chromium, except under CI=true.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../src/surfaces/http/server.test-support.js';
import type { LaunchedBrowser } from './browser.js';
import { browserGate, logIn, openInspector, openView, screenshot, seriousViolations, startInspectorServer, tabTo } from './support.js';

const { skip, missing } = browserGate();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(skip)('inspector: entities and relations over time', () => {
  let t: TestServer;
  let b: LaunchedBrowser;
  let page: Page;
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    const server = await startInspectorServer(missing);
    ({ t, keyA, keyB } = server);
    const { call } = server;
    await call('POST', '/v1/entities', {
      entities: [
        { name: 'Alice', entity_type: 'person', observations: ['Leads the billing team'] },
        { name: 'Carol', entity_type: 'person', observations: [] },
        { name: 'Lisbon', entity_type: 'place', observations: [] },
        { name: 'Berlin', entity_type: 'place', observations: [] },
        { name: 'Acme', entity_type: 'organization', observations: [] },
      ],
    });
    await call('POST', '/v1/relations', {
      relations: [
        { from: 'Carol', to: 'Alice', relation_type: 'manages', valid_from: '2024-01-01T00:00:00Z' },
        { from: 'Alice', to: 'Acme', relation_type: 'works_at', valid_from: '2023-06-01T00:00:00Z' },
        { from: 'Alice', to: 'Lisbon', relation_type: 'lives_in', valid_from: '2022-01-01T00:00:00Z', exclusive: true },
      ],
    });
    // Recorded a moment later: the move closes the Lisbon edge (transaction time) and ends it in the world.
    await sleep(1200);
    await call('POST', '/v1/relations', { relations: [{ from: 'Alice', to: 'Berlin', relation_type: 'lives_in', valid_from: '2025-03-01T00:00:00Z', exclusive: true }] });
    await call('POST', '/v1/entities', { entities: [{ name: 'Globex', entity_type: 'organization', observations: ['secret merger'] }] }, keyB);

    ({ b, page } = await openInspector(t.url, keyA));
  });

  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  const expectAccessible = async () => expect(await seriousViolations(page)).toEqual([]);
  const count = () => page.getByTestId('entities-count').textContent();

  it('draws the graph, opens an entity by keyboard, and shows its relations with their validity', async () => {
    await openView(page, 'Entities');
    await expect.poll(count).toBe('As of now: 3 of 4 relations, 5 entities');
    await page.getByTestId('entity-graph').locator('canvas').first().waitFor();

    // By keyboard: from the time control to Alice in the entity list.
    await page.getByLabel('As of').focus();
    await tabTo(page, (el) => el.tag === 'button' && el.text.startsWith('Alice'));
    await page.keyboard.press('Enter');
    const detail = page.getByTestId('entity-detail');
    await detail.getByRole('heading', { name: /Alice/ }).waitFor();
    await detail.getByText('Leads the billing team').waitFor();
    const rels = detail.getByRole('list', { name: 'Relations' });
    await expect.poll(() => rels.getByRole('listitem').count()).toBe(4);
    const berlin = rels.getByRole('listitem').filter({ hasText: 'Berlin' });
    await berlin.getByText('holds', { exact: true }).waitFor();
    const lisbon = rels.getByRole('listitem').filter({ hasText: 'Lisbon' });
    await lisbon.getByText('not then', { exact: true }).waitFor();
    await expectAccessible();
    await screenshot(page, '13-entities');

    // Click through to the other end of a relation.
    await rels.getByRole('button', { name: 'show Carol' }).click();
    await detail.getByRole('heading', { name: /Carol/ }).waitFor();
  });

  it('the as-of control reads the graph as Engram knew it, and as it held in the world', async () => {
    await page.getByRole('list', { name: 'Entities' }).getByRole('button', { name: /^Alice/ }).click();
    const detail = page.getByTestId('entity-detail');
    const rels = detail.getByRole('list', { name: 'Relations' });
    const lisbon = rels.getByRole('listitem').filter({ hasText: 'Lisbon' });
    const berlin = rels.getByRole('listitem').filter({ hasText: 'Berlin' });

    // Recorded time: one change back is the move itself; one more, and it was not yet recorded (Lisbon).
    const slider = page.getByLabel('As of');
    await slider.focus();
    await page.keyboard.press('End');
    await expect.poll(count).toBe('As of now: 3 of 4 relations, 5 entities');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(count).toMatch(/^As of \d{4}-\d\d-\d\d \S+: 3 of 4 relations/);
    await berlin.getByText('holds', { exact: true }).waitFor();
    const moved = await count();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(count).not.toBe(moved);
    await expect.poll(count).toMatch(/^As of \d{4}-\d\d-\d\d \S+: 3 of 4 relations/);
    await lisbon.getByText('holds', { exact: true }).waitFor();
    await berlin.getByText('not then', { exact: true }).waitFor();
    await page.keyboard.press('Home');
    await expect.poll(count).toMatch(/^As of \S+ \S+: [123] of 4 relations/);

    // Valid time steps through the dates the relations name: the move on 2025-03-01, and 2024-01-01 before it.
    await page.getByLabel('Time', { exact: true }).selectOption('valid');
    await expect.poll(count).toBe('As of now: 3 of 4 relations, 5 entities');
    await berlin.getByText('holds', { exact: true }).waitFor();
    await slider.focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(count).toBe('As of 2025-03-01 00:00:00Z: 3 of 4 relations, 5 entities');
    await berlin.getByText('holds', { exact: true }).waitFor();
    await lisbon.getByText('not then', { exact: true }).waitFor();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(count).toBe('As of 2024-01-01 00:00:00Z: 3 of 4 relations, 5 entities');
    await lisbon.getByText('holds', { exact: true }).waitFor();
    await berlin.getByText('not then', { exact: true }).waitFor();
    expect(await lisbon.textContent()).toMatch(/valid: 2022-01-01 00:00:00Z → 2025-03-01 00:00:00Z/);
    await page.keyboard.press('Home');
    await expect.poll(count).toBe('As of 2022-01-01 00:00:00Z: 1 of 4 relations, 5 entities');
    await expectAccessible();
    await screenshot(page, '14-entities-as-of');
  });

  it("tenant B sees none of tenant A's entities or relations", async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await logIn(page, t.url, keyB);
    await openView(page, 'Entities');
    await expect.poll(count).toBe('As of now: 0 of 0 relations, 1 entities');
    await page.getByRole('list', { name: 'Entities' }).getByRole('button', { name: /^Globex/ }).waitFor();
    expect(await page.locator('main').textContent()).not.toMatch(/Alice|Carol|Lisbon|Berlin|Acme/);
  });
});
