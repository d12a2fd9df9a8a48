/**
 * `npx tsx bench/locomo/misses.ts --data locomo10.json --cache-dir DIR [--out FILE] [--split dev|heldout|all]`: per
 * question of the split (categories 1–4 with evidence), the rankings that place its evidence — hybrid `search` and
 * `getContext` as the bench asks them (k 20), and BM25 and vector alone at depth 200 — as JSON lines, for an offline
 * classification of the misses (where each missed evidence turn sits, which signal knows it); prints the split's R@10
 * of both rows and, per category, the recall each row lost by class (miss-classes.ts), and (at depth ≥ 80) hybrid's by
 * the signal whose pool of 80 holds the turn (signalClass). Opens the database a full
 * (ten-conversation) `bench:locomo` run cached; `--from FILE` classes an earlier dump without opening anything.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { DEV_SPLIT, loadLocomo } from './dataset.js';
import { openCachedRun } from './cached.js';
import { gathersAcrossSessions } from '../../src/read/session-spread.js';
import { classifyMisses, signalClass, type MissClass, type TurnInfo } from './miss-classes.js';
import { contextRetriever, searchRetriever } from './retrievers.js';

interface Row {
  conv: string;
  q: string;
  cat: number;
  evidence: string[];
  hybrid: string[];
  context: string[];
  bm25: string[];
  vector: string[];
}

const o = new Command()
  .requiredOption('--data <file>', 'locomo10.json')
  .option('--cache-dir <dir>', 'cache', '.engram-cache/locomo')
  .option('--out <file>', 'JSON lines, one per question')
  .option('--split <s>', 'dev, heldout or all', 'dev')
  .option('--depth <n>', 'depth of the single-signal rankings', '200')
  .option('--from <file>', 'class the misses of an earlier dump (JSON lines) instead of retrieving')
  .parse(process.argv)
  .opts<{ data: string; cacheDir: string; out?: string; split: string; depth: string; from?: string }>();
const conversations = loadLocomo(o.data);
const rows: Row[] = o.from ? readFileSync(o.from, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Row) : await retrieve();
if (o.out && !o.from) writeFileSync(o.out, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
report(rows);

async function retrieve(): Promise<Row[]> {
const { engine, clock, close } = await openCachedRun(o.data, o.cacheDir, conversations);
const hybrid = searchRetriever(engine.memory, 'hybrid', 'dia_id');
const bm25 = searchRetriever(engine.memory, 'lexical', 'dia_id');
const vector = searchRetriever(engine.memory, 'vector', 'dia_id');
const context = contextRetriever(engine.memory, engine.diaOf);
const depth = Number(o.depth);
const inSplit = (id: string) => o.split === 'all' || (o.split === 'dev') === DEV_SPLIT.includes(id);
const rows: Row[] = [];
for (const c of conversations.filter((x) => inSplit(x.id))) {
  for (const q of c.questions) {
    if (q.evidence.length === 0 || q.category === 5) continue;
    clock.at = q.askedAt;
    const [h, g, l, v] = [await hybrid(q.question, c.id, 20), await context(q.question, c.id, 20), await bm25(q.question, c.id, depth), await vector(q.question, c.id, depth)];
    clock.at = undefined;
    rows.push({ conv: c.id, q: q.question, cat: q.category, evidence: q.evidence, hybrid: h, context: g, bm25: l, vector: v });
  }
}
await close();
return rows;
}

/** R@10 of both rows per category, and the recall each lost by class (summed over questions, as R@10 counts it). */
function report(list: readonly Row[]): void {
  const turnsOf = new Map(conversations.map((c) => [c.id, new Map(c.turns.map((t): [string, TurnInfo] => [t.diaId, { speaker: t.speaker, text: t.text, session: t.session }]))]));
  const r10 = (ev: readonly string[], l: readonly string[]) => ev.filter((e) => l.slice(0, 10).includes(e)).length / ev.length;
  const groups = new Map<string, Row[]>([['all', [...list]]]);
  for (const r of list) groups.set(`cat${r.cat}`, [...(groups.get(`cat${r.cat}`) ?? []), r]);
  const f = (x: number) => x.toFixed(1);
  console.log(`${o.split}: ${list.length} questions`);
  for (const [g, rs] of [...groups].sort((a, b) => a[0].localeCompare(b[0]))) {
    const line = (row: 'hybrid' | 'context') => {
      const lost: Record<MissClass, number> = { near: 0, 'deep-shared': 0, 'deep-gap': 0 };
      let recall = 0;
      let sessions = 0;
      let named = 0;
      let namedN = 0;
      let gapGathering = 0;
      for (const r of rs) {
        const m = classifyMisses(r.q, r.evidence, r[row], turnsOf.get(r.conv)!);
        recall += r10(r.evidence, r[row]);
        sessions += m.topSessions;
        for (const k of Object.keys(lost) as MissClass[]) lost[k] += m.lost[k];
        if (gathersAcrossSessions(r.q)) gapGathering += m.lost['deep-gap'];
        if (m.topByNamed !== undefined) {
          named += m.topByNamed;
          namedN += 1;
        }
      }
      const n = rs.length;
      return `${row} R@10 ${(recall / n).toFixed(4)}; lost ${f(n - recall)} (near ${f(lost.near)}, deep-shared ${f(lost['deep-shared'])}, deep-gap ${f(lost['deep-gap'])}, of it in gathering questions ${f(gapGathering)}); top-10 sessions ${(sessions / n).toFixed(1)}, by the one named speaker ${namedN ? (named / namedN).toFixed(1) : '-'} of 10`;
    };
    console.log(`  ${g} (${rs.length}): ${line('hybrid')}\n  ${' '.repeat(g.length + String(rs.length).length + 4)}${line('context')}`);
  }
  // By signal (miss-classes.ts signalClass): which index's pool of 80 holds each evidence turn hybrid misses at 10.
  // The vector ranking always fills its depth: one shorter than 80 was asked with --depth < 80.
  if (list.some((r) => r.vector.length < 80)) return;
  console.log('hybrid misses at 10 by signal (recall lost; "top": a signal had it in its top 10):');
  for (const [g, rs] of [...groups].sort((a, b) => a[0].localeCompare(b[0]))) {
    const lost = new Map<string, number>();
    for (const r of rs) {
      for (const e of r.evidence) {
        if (r.hybrid.slice(0, 10).includes(e)) continue;
        const { cls, top } = signalClass(e, r.bm25, r.vector);
        const k = `${cls}${top ? ' (top)' : ''}`;
        lost.set(k, (lost.get(k) ?? 0) + 1 / r.evidence.length);
      }
    }
    console.log(`  ${g}: ${[...lost].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${f(v)}`).join(', ')}`);
  }
}
