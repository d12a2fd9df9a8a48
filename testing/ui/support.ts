/** Shared steps of the inspector's browser tests: the built app, logging in, axe, screenshots. */
import { AxeBuilder } from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { startTestServer, type TestServer } from '../../src/surfaces/http/server.test-support.js';
import { chromiumMissingReason, launchChromium, type LaunchedBrowser } from './browser.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHOTS_DIR = join(ROOT, 'ui-screenshots');

/** The newest modification time of the inspector's sources. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * `npm ci` builds dist-ui through `prepare`; a checkout that skipped it, or whose ui/ sources changed since,
 * gets it (re)built here, so a test never drives a stale build.
 */
export function ensureUiBuilt(): void {
  const index = join(ROOT, 'dist-ui', 'index.html');
  const fresh = () => existsSync(index) && statSync(index).mtimeMs >= newestSource(join(ROOT, 'ui'));
  if (fresh()) return;
  // Test files run in parallel: one builds, the others wait for it (mkdir is atomic).
  const lock = join(ROOT, 'dist-ui.lock');
  try {
    mkdirSync(lock);
  } catch {
    const until = Date.now() + 180_000;
    while (existsSync(lock) && Date.now() < until) execFileSync('sleep', ['0.5']);
    if (fresh()) return;
    rmSync(lock, { recursive: true, force: true });
    mkdirSync(lock);
  }
  try {
    buildUi();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function buildUi(): void {
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(ROOT, 'ui', 'vite.config.ts')], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

export async function logIn(page: Page, baseUrl: string, key: string): Promise<void> {
  await page.goto(`${baseUrl}/ui/`);
  await page.getByLabel('Tenant API key').fill(key);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}

export async function openView(page: Page, label: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: label, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: label }).waitFor();
}

export interface AxeFinding {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.x A and AA rules). */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SHOTS_DIR, `${name}.png`), fullPage: false });
}

const FOCUSED = `(() => {
  const a = document.activeElement;
  const label = a?.getAttribute('aria-label') ?? (a?.id ? document.querySelector('label[for="' + a.id + '"]')?.textContent ?? null : null);
  return { tag: a?.tagName.toLowerCase() ?? '', text: (a?.textContent ?? '').trim(), label };
})()`;

/** Presses Tab until the focused element matches, so a test proves an action is reachable by keyboard. */
export async function tabTo(page: Page, matches: (el: { tag: string; text: string; label: string | null }) => boolean, maxTabs = 80): Promise<void> {
  for (let i = 0; i < maxTabs; i++) {
    await page.keyboard.press('Tab');
    // Source text: the root tsconfig has no DOM types.
    const el = (await page.evaluate(FOCUSED)) as { tag: string; text: string; label: string | null };
    if (matches(el)) return;
  }
  throw new TypeError(`no element matched after ${maxTabs} presses of Tab`);
}

/** Whether a browser suite can run: without Chromium it is skipped with a warning, except under CI=true. */
export function browserGate(): { skip: boolean; missing: string | undefined } {
  const missing = chromiumMissingReason();
  const inCi = process.env.CI === 'true';
  if (missing && !inCi) console.warn(`[inspector e2e] skipped: ${missing}`);
  return { skip: missing !== undefined && !inCi, missing };
}

export interface InspectorServer {
  t: TestServer;
  /** Tenant "acme"'s key, and tenant "globex"'s. */
  keyA: string;
  keyB: string;
  /** A REST call that must succeed (status < 300), as tenant A unless another key is given; its JSON body. */
  call(method: string, path: string, body?: unknown, key?: string): Promise<Record<string, unknown>>;
}

/** The built inspector and a real server with two tenants; under CI=true a missing Chromium fails here. */
export async function startInspectorServer(missing: string | undefined): Promise<InspectorServer> {
  if (missing) throw new TypeError(`CI=true and ${missing}`);
  ensureUiBuilt();
  const t = await startTestServer();
  const keyA = await t.keyFor('acme', 'inspector');
  const keyB = await t.keyFor('globex', 'inspector');
  const call = async (method: string, path: string, body?: unknown, key = keyA) => {
    const r = await t.call(method, path, { key, body });
    expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300);
    return r.body as Record<string, unknown>;
  };
  return { t, keyA, keyB, call };
}

/** Chromium on a fresh profile, logged in to the inspector with `key`. */
export async function openInspector(baseUrl: string, key: string): Promise<{ b: LaunchedBrowser; page: Page }> {
  const b = await launchChromium();
  const page = await b.context.newPage();
  await logIn(page, baseUrl, key);
  return { b, page };
}

/** A closed case as an agent leaves one: its report, what it noted on the way, and the root cause it recorded. */
export interface ClosedCase {
  task_id: string;
  report: string;
  /** An observation logged after the report. */
  note?: string;
  cause: string;
  /** Default FAILURE. */
  outcome?: string;
}

/**
 * Closes each case in turn through the REST API, as an agent does: retrieve for its report (no episodic window),
 * log the report (and the note), record the outcome with its root cause; the store is flushed between cases, so
 * each one is indexed before the next retrieves. With `user_id`, the cases are that user's, each in a session of its own.
 */
export async function seedClosedCases(server: Pick<InspectorServer, 't' | 'call'>, cases: readonly ClosedCase[], who: { user_id?: string } = {}): Promise<void> {
  for (const c of cases) {
    await server.t.tm.memory.flush();
    const scope = { ...(who.user_id ? { user_id: who.user_id, session_id: `s-${c.task_id}` } : {}), task_id: c.task_id };
    const ctx = await server.call('POST', '/v1/context', { query: c.report, ...(who.user_id ? { scope: { user_id: who.user_id } } : {}), task_id: c.task_id, episodic_window: { mode: 'none', n: 0 } });
    const notes = c.note ? [{ ...scope, type: 'observation', actor: 'agent', content: c.note }] : [];
    await server.call('POST', '/v1/events/batch', { events: [{ ...scope, type: 'message', actor: 'user', content: c.report }, ...notes] });
    await server.call('POST', '/v1/outcomes', { retrieval_id: ctx.retrieval_id, outcome: c.outcome ?? 'FAILURE', root_cause: c.cause });
  }
  await server.t.tm.memory.flush();
}
