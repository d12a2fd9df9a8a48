/** A dependency-free SVG line chart (log-scaled x), for latency vs N. */
export interface Series {
  name: string;
  points: { x: number; y: number }[];
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b'];
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function lineChartSvg(title: string, xLabel: string, yLabel: string, series: readonly Series[], opts: { width?: number; height?: number } = {}): string {
  const W = opts.width ?? 640;
  const H = opts.height ?? 360;
  const m = { l: 60, r: 150, t: 36, b: 48 };
  const pts = series.flatMap((s) => s.points);
  const xs = pts.map((p) => Math.log10(Math.max(1, p.x)));
  const x0 = Math.min(...xs, 0);
  const x1 = Math.max(...xs, x0 + 1);
  const y1 = Math.max(...pts.map((p) => p.y), 1) * 1.1;
  const sx = (x: number) => m.l + ((Math.log10(Math.max(1, x)) - x0) / (x1 - x0)) * (W - m.l - m.r);
  const sy = (y: number) => H - m.b - (y / y1) * (H - m.t - m.b);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="20" text-anchor="middle" font-size="14">${esc(title)}</text>`,
    `<line x1="${m.l}" y1="${H - m.b}" x2="${W - m.r}" y2="${H - m.b}" stroke="black"/>`,
    `<line x1="${m.l}" y1="${m.t}" x2="${m.l}" y2="${H - m.b}" stroke="black"/>`,
    `<text x="${(m.l + W - m.r) / 2}" y="${H - 10}" text-anchor="middle">${esc(xLabel)}</text>`,
    `<text x="14" y="${(m.t + H - m.b) / 2}" text-anchor="middle" transform="rotate(-90 14 ${(m.t + H - m.b) / 2})">${esc(yLabel)}</text>`,
  ];
  for (let i = 0; i <= 4; i++) {
    const y = (y1 * i) / 4;
    out.push(`<line x1="${m.l - 4}" y1="${sy(y)}" x2="${W - m.r}" y2="${sy(y)}" stroke="#ddd"/>`, `<text x="${m.l - 6}" y="${sy(y) + 4}" text-anchor="end">${+y.toPrecision(3)}</text>`);
  }
  for (const x of [...new Set(pts.map((p) => p.x))].sort((a, b) => a - b)) {
    out.push(`<text x="${sx(x)}" y="${H - m.b + 16}" text-anchor="middle">${x >= 1000 ? `${x / 1000}k` : x}</text>`);
  }
  series.forEach((s, i) => {
    const c = COLORS[i % COLORS.length]!;
    const p = [...s.points].sort((a, b) => a.x - b.x);
    out.push(`<polyline fill="none" stroke="${c}" stroke-width="2" points="${p.map((q) => `${sx(q.x).toFixed(1)},${sy(q.y).toFixed(1)}`).join(' ')}"/>`);
    for (const q of p) out.push(`<circle cx="${sx(q.x).toFixed(1)}" cy="${sy(q.y).toFixed(1)}" r="3" fill="${c}"/>`);
    out.push(`<rect x="${W - m.r + 10}" y="${m.t + i * 18}" width="12" height="3" fill="${c}"/>`, `<text x="${W - m.r + 28}" y="${m.t + i * 18 + 5}">${esc(s.name)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
