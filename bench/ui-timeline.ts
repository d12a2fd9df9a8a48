/**
 * The inspector's timeline with a large tenant, measured in the browser (Debian's Chromium via playwright-core)
 * with the Performance API — a bench, not a test:
 *   - first render: from navigation start to the first timeline row in the DOM (performance.now() in the page,
 *     recorded by a MutationObserver installed before the app loads), cold and then warm (cached assets);
 *   - a scroll through 10,000 rows, one step of 20 rows per animation frame, pages fetched as the list runs on:
 *     every long task (PerformanceObserver 'longtask', > 50 ms) and the frame intervals.
 *
 *   npm run bench:ui -- [--events 100000] [--rows 10000] [--json]
 *
 * The server is `engram serve`'s HTTP stack in-process on loopback, on a temp SQLite file; the events are
 * written through the library in batches of 1,000 with background embedding and learning off (the embedder
 * would otherwise compete with the browser for the two cores this was measured on).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createHeuristicReranker } from '../src/adapters/rerankers/heuristic.js';
import { openSqliteStorage } from '../src/adapters/storage/sqlite/index.js';
import { createMemory } from '../src/memory.js';
import { createApiKey } from '../src/surfaces/http/keys.js';
import { startHttpServer } from '../src/surfaces/http/server.js';
import { sharedEmbedder } from '../testing/memory-fixture.js';
import { chromiumMissingReason, launchChromium } from '../testing/ui/browser.js';
import { ensureUiBuilt } from '../testing/ui/support.js';
import { FIRST_ROW, IDLE_FRAMES_SCRIPT, INIT_SCRIPT, SCROLL_SCRIPT, type ScrollResult } from './ui-timeline-page.js';

const { values: opts } = parseArgs({
  options: {
    events: { type: 'string', default: '100000' },
    rows: { type: 'string', default: '10000' },
    json: { type: 'boolean', default: false },
    /** Also sample the main thread (CDP Profiler) while scrolling and print the functions with most self time. */
    profile: { type: 'boolean', default: false },
  },
});
const nEvents = Number(opts.events);
const nRows = Number(opts.rows);
const log = (s: string) => {
  if (!opts.json) process.stderr.write(`${s}\n`);
};

const ROW_HEIGHT = 34;
const ROWS_PER_FRAME = 20;
const TYPES = ['message', 'tool_call', 'observation', 'decision', 'outcome', 'note'] as const;

async function main() {
  const missing = chromiumMissingReason();
  if (missing) throw new TypeError(missing);
  ensureUiBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'engram-ui-bench-'));
  const memory = await createMemory({
    storage: await openSqliteStorage({ path: join(dir, 'bench.db') }),
    embedder: sharedEmbedder(),
    reranker: createHeuristicReranker(),
    config: { indexing: { background: false }, retention: { sweepIntervalMinutes: 0 }, learn: { engine: { background: false } } },
  });
  const server = await startHttpServer({ memory, logger: pino({ level: 'silent' }), options: { port: 0, rateLimit: { perSecond: 0 } } });
  const browser = await launchChromium();
  try {
    log(`writing ${nEvents.toLocaleString('en-US')} events…`);
    const t0 = performance.now();
    const base = Date.now() - nEvents * 1000;
    for (let i = 0; i < nEvents; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, nEvents - i) }, (_, j) => {
        const n = i + j;
        return {
          tenant: 'bench',
          userId: `user-${n % 50}`,
          sessionId: `session-${Math.floor(n / 40)}`,
          type: TYPES[n % TYPES.length]!,
          actor: n % 2 ? ('agent' as const) : ('user' as const),
          content: `Event ${n}: the user asked about order ${n * 7919 % 100_003} and the agent checked shipment status ${n % 13}`,
          ts: base + n * 1000,
          tags: n % 5 === 0 ? ['billing'] : [],
        };
      });
      await memory.logEvents(batch);
    }
    log(`  written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const { key } = await createApiKey(memory.storage, { role: 'tenant', tenant: 'bench', name: 'bench' });

    const page = await browser.context.newPage();
    await page.addInitScript(INIT_SCRIPT(key));

    const firstRender = async () => {
      await page.goto('about:blank');
      await page.goto(`${server.url}/ui/#/timeline`);
      // Polled from here: a string predicate in waitForFunction would be eval'd in the page, which its CSP forbids.
      // The time itself is taken in the page by the observer, so the polling interval does not change it.
      for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
        const t = (await page.evaluate(FIRST_ROW)) as number | undefined;
        if (t !== undefined) return t;
      }
      throw new TypeError('the timeline showed no row within 30 s');
    };
    const cold = await firstRender();
    const warm = await firstRender();
    log(`first render: cold ${cold.toFixed(0)} ms, warm ${warm.toFixed(0)} ms`);

    // The machine is shared: the same frame loop on an empty page gives the floor that contention alone costs.
    const idle = await browser.context.newPage();
    await idle.goto(`${server.url}/healthz`);
    const floor = (await idle.evaluate(IDLE_FRAMES_SCRIPT(500))) as { frameP50: number; frameP95: number; frameMax: number; longTasks: number };
    await idle.close();

    // Main-thread CPU time (Chrome's ThreadTime metric) does not grow when other processes take the cores.
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const threadTime = async () => ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')?.value ?? 0) * 1000;
    log(`scrolling through ${nRows.toLocaleString('en-US')} rows…`);
    if (opts.profile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    const cpu0 = await threadTime();
    const scroll = (await page.evaluate(SCROLL_SCRIPT(nRows, ROW_HEIGHT, ROWS_PER_FRAME))) as ScrollResult;
    const cpuMs = (await threadTime()) - cpu0;
    if (opts.profile) printTopFunctions((await cdp.send('Profiler.stop')).profile);
    const domRows = await page.locator('[role="listitem"]').count();
    const result = {
      machine: { cpus: cpus().length, model: cpus()[0]?.model, load1: loadavg()[0] },
      chromium: browser.context.browser()?.version() ?? 'persistent context',
      events: nEvents,
      firstRenderMs: { cold: Math.round(cold), warm: Math.round(warm) },
      idlePageFrames: { frameP50: +floor.frameP50.toFixed(1), frameP95: +floor.frameP95.toFixed(1), frameMax: +floor.frameMax.toFixed(1), longTasks: floor.longTasks },
      scroll: { ...scroll, mainThreadCpuMs: Math.round(cpuMs), cpuMsPerFrame: +(cpuMs / Math.max(1, scroll.frames)).toFixed(2), ms: Math.round(scroll.ms), frameP50: +scroll.frameP50.toFixed(1), frameP95: +scroll.frameP95.toFixed(1), frameMax: +scroll.frameMax.toFixed(1), longTaskMax: Math.round(scroll.longTaskMax), domRows },
    };
    if (opts.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else log(JSON.stringify(result, null, 2));
  } finally {
    await browser.close();
    await server.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

function printTopFunctions(profile: CpuProfile): void {
  const self = new Map<number, number>();
  (profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0)));
  const byName = new Map<string, number>();
  for (const n of profile.nodes) {
    const name = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop() ?? ''}:${n.callFrame.lineNumber}`;
    byName.set(name, (byName.get(name) ?? 0) + (self.get(n.id) ?? 0));
  }
  const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 15);
  for (const [name, us] of top) log(`  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`);
}

await main();
