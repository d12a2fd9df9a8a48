/** The LoCoMo chart for people: evidence recall@k (categories 1–4) against k, one line per retriever. */
import { lineChartSvg } from '../perf/chart.js';
import type { LocomoReport } from './run.js';

export function locomoChart(r: LocomoReport, group = 'all'): string {
  const series = Object.entries(r.retrievers).map(([name, rep]) => ({
    name,
    points: r.ks.flatMap((k) => {
      const t = rep.byK[group]?.[String(k)];
      return t ? [{ x: k, y: t.recall }] : [];
    }),
  }));
  return lineChartSvg(`LoCoMo evidence recall@k (${group === 'all' ? 'categories 1–4' : group}, ${r.questions} questions)`, 'k (log scale)', 'evidence recall', series);
}
