/** Confidence of each version against the time it was recorded (uPlot), with support and contradiction counts. */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Fact } from '../api/types';

export function ConfidenceChart({ versions }: { versions: Fact[] }) {
  const el = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const xs = versions.map((v) => Date.parse(v.recorded_at) / 1000);
    // uPlot needs increasing x; versions recorded in the same second are spread by a millisecond each.
    for (let i = 1; i < xs.length; i++) if (xs[i]! <= xs[i - 1]!) xs[i] = xs[i - 1]! + 0.001;
    const plot = new uPlot(
      {
        width: Math.max(280, node.clientWidth || 520),
        height: 160,
        scales: { y: { range: [0, 1] } },
        series: [{}, { label: 'confidence', stroke: '#2458b3', width: 2, points: { show: true, size: 7 } }],
        axes: [{}, { values: (_u, ticks) => ticks.map((t) => t.toFixed(1)) }],
        legend: { show: false },
      },
      [xs, versions.map((v) => v.confidence)],
      node,
    );
    return () => plot.destroy();
  }, [versions]);

  return (
    <figure className="chart">
      <div ref={el} role="img" aria-label={`Confidence over ${versions.length} versions: ${versions.map((v) => v.confidence.toFixed(2)).join(', ')}`} />
      <figcaption>
        {versions.map((v) => `v${v.version}: ${v.confidence.toFixed(2)} (+${v.support_count}/−${v.contradict_count})`).join(' · ')}
      </figcaption>
    </figure>
  );
}
