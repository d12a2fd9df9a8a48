import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createUseLiteEmbedder } from '../../src/index.js';
import { lineChartSvg } from '../perf/chart.js';
import { parseEvidence, parseLocomo, parseSessionDate } from './dataset.js';
import { renderLocomo } from './report.js';
import { listsByK, runLocomoBench } from './run.js';
import { distinct } from './retrievers.js';
import { scoreQuestion } from './score.js';
import { nodeArgs } from '../../testing/node-entry.js';

const dir = mkdtempSync(join(tmpdir(), 'locomo-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A tiny LoCoMo-shaped fixture (not the real data): two conversations, malformed evidence included. */
const fixture = [
  {
    sample_id: 'conv-26',
    conversation: {
      speaker_a: 'Ana',
      speaker_b: 'Ben',
      session_1_date_time: '1:56 pm on 8 May, 2023',
      session_1: [
        { speaker: 'Ana', dia_id: 'D1:1', text: 'I adopted a grey kitten called Pixel last weekend.' },
        { speaker: 'Ben', dia_id: 'D1:2', text: 'Lovely! I started training for the Lisbon marathon.' },
        { speaker: 'Ana', dia_id: 'D1:3', text: 'My sister works as a nurse in Porto.' },
      ],
      session_2_date_time: '10:00 am on 12 June, 2023',
      session_2: [
        { speaker: 'Ben', dia_id: 'D2:1', text: 'The marathon went well, I finished in four hours.' },
        { speaker: 'Ana', dia_id: 'D2:2', text: 'Pixel knocked my coffee over this morning.' },
      ],
    },
    qa: [
      { question: 'What is the name of Ana’s kitten?', answer: 'Pixel', evidence: ['D1:1'], category: 4 },
      { question: 'Which marathon did Ben train for and how long did it take?', answer: 'Lisbon, four hours', evidence: ['D1:2; D2:01'], category: 1 },
      { question: 'Where does Ana’s sister work?', answer: 'Porto', evidence: ['D', 'D1:3', 'D9:9'], category: 4 },
      { question: 'What is Ana’s brother’s job?', adversarial_answer: 'nurse', evidence: ['D1:3'], category: 5 },
    ],
  },
  {
    sample_id: 'conv-42',
    conversation: {
      speaker_a: 'Cy',
      speaker_b: 'Di',
      session_1_date_time: '9:15 pm on 3 March, 2022',
      session_1: [
        { speaker: 'Cy', dia_id: 'D1:1', text: 'I planted tomatoes and basil in the backyard.' },
        { speaker: 'Di', dia_id: 'D1:2', text: 'I am learning to play the cello.' },
      ],
    },
    qa: [{ question: 'What instrument is Di learning?', answer: 'cello', evidence: ['D1:2'], category: 4 }],
  },
];

describe('LoCoMo parsing', () => {
  it('parses session date-times to UTC', () => {
    expect(parseSessionDate('1:56 pm on 8 May, 2023')).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(parseSessionDate('12:05 am on 1 January, 2020')).toBe(Date.UTC(2020, 0, 1, 0, 5));
    expect(parseSessionDate('sometime')).toBeUndefined();
  });

  it('reads dates in other common forms (LongMemEval, ISO, month names)', () => {
    expect(parseSessionDate('2023/05/20 (Sat) 04:03')).toBe(Date.UTC(2023, 4, 20, 4, 3));
    expect(parseSessionDate('2023-05-20T04:03:00Z')).toBe(Date.UTC(2023, 4, 20, 4, 3));
    expect(parseSessionDate('May 20, 2023 4:03 pm')).toBe(Date.UTC(2023, 4, 20, 16, 3));
    // No year: not a date to place a session at.
    expect(parseSessionDate('Saturday at noon')).toBeUndefined();
  });

  it("keeps a question's own date when the data has one", () => {
    const dated = structuredClone(fixture);
    (dated[1]!.qa[0] as Record<string, unknown>).question_date = '2022/03/10 (Thu) 09:00';
    const [, c] = parseLocomo(dated);
    expect(c!.questions[0]!.askedAt).toBe(Date.UTC(2022, 2, 10, 9, 0));
    expect(parseLocomo(fixture)[1]!.questions[0]!.askedAt).toBeUndefined();
  });

  it('refuses a turn over the content limit before any work, naming it and --chunk-long', async () => {
    const long = structuredClone(fixture);
    long[1]!.conversation.session_1[1]!.text = 'I practise the cello every day. '.repeat(1100);
    const data = join(dir, 'long.json');
    writeFileSync(data, JSON.stringify(long));
    const run = runLocomoBench({ dataPath: data, paraphrasePath: join(dir, 'none.json'), cacheDir: join(dir, 'never'), ks: [5], mem0: false });
    await expect(run).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/conv-42 turn D1:2 has \d+ characters.*--chunk-long/) });
    // The command exits on it (status 2), whatever it had started.
    const para = join(dir, 'para-none.json');
    writeFileSync(para, JSON.stringify({ memories: [], queries: [] }));
    const r = spawnSync(process.execPath, [...nodeArgs('bench/locomo/main.ts'), '--data', data, '--paraphrase', para, '--cache-dir', join(dir, 'never'), '--no-mem0'], {
      cwd: join(import.meta.dirname, '../..'),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--chunk-long');
  }, 90_000);

  it('splits, normalises and skips malformed evidence ids', () => {
    const known = new Set(['D8:6', 'D9:17', 'D30:5', 'D1:1']);
    const r = parseEvidence(['D8:6; D9:17', 'D30:05', 'D', 'D:11:26', 'D1:1 D8:6', 'D10:19'], known);
    expect(r.ids.sort()).toEqual(['D1:1', 'D30:5', 'D8:6', 'D9:17']);
    expect(r.skipped).toEqual(['D', 'D:11:26', 'D10:19']);
  });

  it('builds turns with speaker, time and blip captions', () => {
    const [c] = parseLocomo(fixture);
    expect(c!.turns).toHaveLength(5);
    expect(c!.turns[3]).toMatchObject({ diaId: 'D2:1', speaker: 'Ben', session: 2, ts: Date.UTC(2023, 5, 12, 10, 0) });
    expect(c!.questions[1]!.evidence.sort()).toEqual(['D1:2', 'D2:1']);
    expect(c!.questions[2]!.skipped).toEqual(['D', 'D9:9']);
  });
});

describe('retrieved ids', () => {
  it('rank a turn imported in parts once, at its best part', () => {
    expect(distinct(['D1:2', undefined, 'D1:1', 'D1:2', 'D3:4'])).toEqual(['D1:2', 'D1:1', 'D3:4']);
  });
});

describe('evidence scoring', () => {
  it('scores recall, hit and session recall at k', () => {
    expect(scoreQuestion(['D1:1', 'D2:3'], ['D2:3', 'D5:1', 'D1:1'], 2)).toEqual({ recall: 0.5, hit: 1, sessionRecall: 0.5 });
    expect(scoreQuestion(['D1:1'], ['D1:2'], 5)).toEqual({ recall: 0, hit: 0, sessionRecall: 1 });
    expect(scoreQuestion([], ['D1:1'], 5)).toBeUndefined();
  });
});

describe('chart', () => {
  it('draws one polyline per series with its points', () => {
    const svg = lineChartSvg('t', 'x', 'y', [
      { name: 'a', points: [{ x: 10, y: 1 }, { x: 100, y: 2 }, { x: 1000, y: 3 }] },
      { name: 'b<c', points: [{ x: 10, y: 5 }] },
    ]);
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg.match(/<circle/g)).toHaveLength(4);
    expect(svg).toContain('b&lt;c');
  });
});

describe('runLocomoBench on a tiny fixture with the real embedder', () => {
  it('retrieves evidence with every retriever and reuses its cached database', async () => {
    const data = join(dir, 'mini.json');
    const para = join(dir, 'para.json');
    writeFileSync(data, JSON.stringify(fixture));
    writeFileSync(para, JSON.stringify({ memories: [{ id: 'm0', text: 'The build broke because the disk was full.' }, { id: 'm1', text: 'Alice likes short status updates.' }], queries: [{ q: 'Why did the nightly pipeline fail?', gold: 'm0' }] }));
    const opts = { dataPath: data, paraphrasePath: para, cacheDir: join(dir, 'cache'), ks: [1, 5], mem0: true, embedder: createUseLiteEmbedder({ provider: 'use-lite', workers: 0, batchSize: 16 }) };
    const first = await runLocomoBench(opts);
    expect(first.ingest.engramReused).toBe(false);
    expect(first.skippedEvidence.count).toBe(2);
    expect(Object.keys(first.retrievers)).toEqual(expect.arrayContaining(['bm25', 'vector', 'hybrid', 'getContext']));
    // Four questions of categories 1–4 (three in the dev conversation) and one of category 5.
    expect(first.retrievers.bm25!.byK.all!['5']!.n).toBe(4);
    expect(first.retrievers.bm25!.byK.cat5!['5']!.n).toBe(1);
    expect(first.retrievers.bm25!.byK.dev!['5']!.n).toBe(3);
    expect(first.retrievers.bm25!.byK.heldout!['5']!.n).toBe(1);
    // Each conversation has at most 5 turns, so recall@5 is complete for every retriever that returns them all.
    expect(first.retrievers.bm25!.byK.all!['5']!.hit).toBeGreaterThan(0.5);
    expect(first.retrievers.hybrid!.byK.all!['5']!.recall).toBeGreaterThan(0.5);
    if (first.mem0Note === undefined) expect(first.retrievers.mem0!.byK.all!['5']!.n).toBe(4);
    expect(renderLocomo(first)).toContain('evidence recall@5');
    const second = await runLocomoBench({ ...opts, mem0: false, embedder: createUseLiteEmbedder({ provider: 'use-lite', workers: 0, batchSize: 16 }) });
    expect(second.ingest.engramReused).toBe(true);
    expect(second.embeddingCache.misses).toBe(0);
    expect(second.retrievers.bm25!.byK.all).toEqual(first.retrievers.bm25!.byK.all);
  }, 120_000);
});

describe('listsByK', () => {
  it('asks a k-dependent retriever once per k and a prefix retriever once for the largest k', async () => {
    const asked: number[] = [];
    const ask = async (k: number) => {
      asked.push(k);
      return Array.from({ length: k }, (_, i) => `k${k}-${i}`);
    };
    const perK = await listsByK(ask, [5, 10, 20], true);
    expect(asked).toEqual([5, 10, 20]);
    expect(perK.get(10)?.[0]).toBe('k10-0');
    asked.length = 0;
    const once = await listsByK(ask, [5, 10, 20], false);
    expect(asked).toEqual([20]);
    expect(once.get(5)?.[0]).toBe('k20-0');
  });
});
