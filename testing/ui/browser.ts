/**
 * Debian's Chromium driven by playwright-core, for the inspector's end-to-end tests and bench. Headless, no
 * sandbox (CI runs as root), nothing that phones home, and a fresh profile in a temp dir per launch.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env.ENGRAM_CHROMIUM ?? '/usr/bin/chromium';

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/** Why the browser tests cannot run here, or undefined when they can. Under CI a missing browser is a failure. */
export function chromiumMissingReason(): string | undefined {
  if (chromiumAvailable()) return undefined;
  return `no Chromium at ${CHROMIUM_PATH}: install Debian's "chromium" package (apt-get install -y chromium) to run the inspector's browser tests`;
}

export interface LaunchedBrowser {
  /** A persistent context on the fresh profile (playwright's way to pass --user-data-dir). */
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<LaunchedBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'engram-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
    viewport: { width: 1400, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
