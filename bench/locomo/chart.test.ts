import { describe, expect, it } from 'vitest';
import { locomoChart } from './chart.js';
import type { LocomoReport } from './run.js';

const tally = (recall: number) => ({ n: 10, recall, hit: recall, sessionRecall: recall });

describe('locomoChart', () => {
  it('draws one line per retriever through its recall at each k of the chosen group', () => {
    const report = {
      ks: [5, 10, 20],
      questions: 10,
      retrievers: {
        bm25: { byK: { all: { '5': tally(0.4), '10': tally(0.5), '20': tally(0.6) } }, paraphrase: { n: 0, recall: {} }, queryMs: 1 },
        hybrid: { byK: { all: { '5': tally(0.5), '10': tally(0.7) }, dev: {} }, paraphrase: { n: 0, recall: {} }, queryMs: 1 },
      },
    } as unknown as LocomoReport;
    const svg = locomoChart(report);
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg.match(/<circle/g)).toHaveLength(5);
    expect(svg).toContain('bm25');
    expect(svg).toContain('categories 1–4');
    expect(locomoChart(report, 'dev').match(/<circle/g)).toBeNull();
  });
});
