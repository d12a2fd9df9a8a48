/**
 * Code that runs inside the page, kept as source text: the root tsconfig has no DOM types, and tsx's name
 * helpers would not exist in the browser if these were passed as compiled functions.
 */

/** Installed before the app loads: the key in session storage, a long-task observer, the first row's time. */
export const INIT_SCRIPT = (key: string) => String.raw`
  sessionStorage.setItem('engram.key', ${JSON.stringify(key)});
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver((_m, obs) => {
    if (document.querySelector('[role="listitem"]')) {
      window.__firstRow = performance.now();
      obs.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
`;

export const FIRST_ROW = 'window.__firstRow';

export interface ScrollResult {
  reachedRow: number;
  ms: number;
  frames: number;
  frameP50: number;
  frameP95: number;
  frameMax: number;
  stalls: number;
  longTasks: number;
  longTaskMax: number;
  rowsLoaded: number;
}

/** Scrolls `rows` rows, `perFrame` rows per animation frame, waiting at the end of what is loaded. */
export const SCROLL_SCRIPT = (rows: number, rowHeight: number, perFrame: number) => String.raw`(async () => {
  const el = document.querySelector('[data-testid="timeline-scroller"]');
  const target = ${rows} * ${rowHeight};
  const frames = [];
  const start = performance.now();
  let last = start;
  let stalls = 0;
  while (el.scrollTop + el.clientHeight < target) {
    const before = el.scrollTop;
    el.scrollTop = before + ${perFrame} * ${rowHeight};
    await new Promise((r) => requestAnimationFrame(() => r()));
    const now = performance.now();
    frames.push(now - last);
    last = now;
    if (el.scrollTop === before) {
      // At the end of what is loaded: wait for the next page (in the total time, not as a frame).
      stalls += 1;
      frames.pop();
      await new Promise((r) => setTimeout(r, 20));
      last = performance.now();
      if (now - start > 120000) break;
    }
  }
  const end = performance.now();
  const tasks = window.__longTasks.filter((t) => t.start >= start && t.start <= end).map((t) => t.duration);
  const sorted = frames.slice().sort((a, b) => a - b);
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
  const count = document.querySelector('[data-testid="timeline-count"]')?.textContent ?? '';
  return {
    reachedRow: Math.floor((el.scrollTop + el.clientHeight) / ${rowHeight}),
    ms: end - start,
    frames: frames.length,
    frameP50: q(0.5),
    frameP95: q(0.95),
    frameMax: sorted.at(-1) ?? 0,
    stalls,
    longTasks: tasks.length,
    longTaskMax: tasks.length ? Math.max(...tasks) : 0,
    rowsLoaded: Number((count.match(/^[\d,]+/) ?? ['0'])[0].replace(/,/g, '')),
  };
})()`;

/** `frames` animation frames doing nothing: the frame intervals and long tasks the machine's load alone causes. */
export const IDLE_FRAMES_SCRIPT = (frames: number) => String.raw`(async () => {
  const tasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) tasks.push(e.duration); }).observe({ type: 'longtask' });
  const gaps = [];
  let last = performance.now();
  for (let i = 0; i < ${frames}; i++) {
    await new Promise((r) => requestAnimationFrame(() => r()));
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }
  gaps.sort((a, b) => a - b);
  const q = (p) => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))];
  return { frameP50: q(0.5), frameP95: q(0.95), frameMax: gaps.at(-1), longTasks: tasks.length };
})()`;
