/**
 * Each version's validity window (valid_from → valid_to, else recorded_at → expired_at) as a bar on one time
 * axis, with an "as of" control: the version that held at that instant is marked and named.
 */
import { useMemo, useState } from 'react';
import type { Fact } from '../api/types';
import { fmtTime } from './Status';

const W = 560;
const ROW = 22;
const PAD = 8;
/** Left gutter for the version labels. */
const GUTTER = 34;

function windowOf(f: Fact, now: number): [number, number] {
  const from = Date.parse(f.valid_from ?? f.recorded_at);
  const to = f.valid_to ? Date.parse(f.valid_to) : f.expired_at ? Date.parse(f.expired_at) : now;
  return [from, Math.max(to, from)];
}

export function ValidityAxis({ versions }: { versions: Fact[] }) {
  const now = useMemo(() => Date.now(), []);
  const spans = versions.map((v) => windowOf(v, now));
  const min = Math.min(...spans.map((s) => s[0]));
  // Room on the right, so an open window that began a moment ago still shows as a bar running on.
  const end = Math.max(now, ...spans.map((s) => s[1]));
  const max = end + Math.max(1000, (end - min) * 0.15);
  const [asOf, setAsOf] = useState(1000);
  const t = min + ((end - min) * asOf) / 1000;
  const x = (ms: number) => GUTTER + ((W - GUTTER - PAD) * (ms - min)) / Math.max(1, max - min);
  const open = (v: Fact) => !v.valid_to && !v.expired_at;
  const holding = versions.findLast((v, i) => spans[i]![0] <= t && (open(v) || t <= spans[i]![1]));
  const h = versions.length * ROW + 24;

  return (
    <figure className="validity">
      <svg viewBox={`0 0 ${W} ${h}`} width="100%" role="img" aria-label={`Validity windows of ${versions.length} versions`}>
        {versions.map((v, i) => {
          const [a, b] = spans[i]!;
          const held = v === holding;
          return (
            <g key={v.id}>
              <text x={0} y={i * ROW + ROW / 2 + 4} className="barlabel">
                v{v.version}
              </text>
              <rect x={x(a)} y={i * ROW + 4} width={Math.max(3, (open(v) ? W - PAD : x(b)) - x(a))} height={ROW - 8} rx={3} className={held ? 'bar held' : 'bar'} />
            </g>
          );
        })}
        <line x1={x(t)} x2={x(t)} y1={0} y2={h - 20} className="asof" />
        <text x={GUTTER} y={h - 6} className="axislabel">
          {fmtTime(new Date(min).toISOString())}
        </text>
        <text x={W - PAD} y={h - 6} textAnchor="end" className="axislabel">
          now {fmtTime(new Date(now).toISOString())}
        </text>
      </svg>
      <label htmlFor="asof">As of</label>
      <input id="asof" type="range" min={0} max={1000} value={asOf} onChange={(e) => setAsOf(Number(e.target.value))} aria-valuetext={fmtTime(new Date(t).toISOString())} />
      <figcaption data-testid="asof-caption">
        As of {fmtTime(new Date(t).toISOString())}: {holding ? `v${holding.version} — “${holding.text}”` : 'no version held'}
      </figcaption>
    </figure>
  );
}
