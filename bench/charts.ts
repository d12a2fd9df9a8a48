/** SVG chart writer for the bench scripts; the implementation lives in src/ so the CLI can use it too. */
export { lineChartSvg, type Series } from './perf/chart.js';
