import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Bm25Index } from '../../lexical/bm25-index.js';
import { resolveVectorIndexOptions } from '../../vector/options.js';
import { ClusteredVectors } from '../../vector/synthetic.test-support.js';
import { UsearchVectorIndex } from '../../vector/usearch-index.js';
import { loadUsearch } from '../../vector/usearch-module.js';
import { DocAttributes, Interner } from './doc-attributes.js';
import { dropIndexParts, loadIndexParts, saveIndexParts } from './index-snapshot.js';

const usearch = loadUsearch();
const DIM = 16;
const about = { engine: 'test', tenant: 't' };

describe.runIf(usearch)('index files with an HNSW graph beside them', () => {
  let dir: string;
  let path: string;
  const make = () => new UsearchVectorIndex(DIM, usearch!, resolveVectorIndexOptions({ annThreshold: 300, indexing: 'inline' }));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-snapshot-'));
    path = join(dir, 't.idx');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function saved(): { vectors: UsearchVectorIndex; query: Float32Array } {
    const data = new ClusteredVectors(DIM, 1000, { seed: 2 });
    const vectors = make();
    const attrs = new DocAttributes(new Interner());
    const lexicon = new Bm25Index();
    for (let i = 0; i < 1000; i++) {
      vectors.add(i, data.next());
      attrs.set(i, { kind: i % 2 ? 'event' : 'fact', userId: `u${i % 3}`, agentId: null, sessionId: null, taskId: null, expiresAt: i === 5 ? 123 : null });
      lexicon.add(i, `doc number ${i} about ${i % 7 === 0 ? 'zebras' : 'horses'}`);
    }
    saveIndexParts(path, about, 42, { lexicon, attrs, vectors });
    return { vectors, query: data.next() };
  }

  const sideFiles = (ext: string) => readdirSync(dir).filter((f) => f.endsWith(ext));
  const flip = (file: string) => {
    const b = readFileSync(file);
    b[b.byteLength >> 1] = b[b.byteLength >> 1]! ^ 1;
    writeFileSync(file, b);
  };
  const fresh = () => ({ lexicon: true, attrs: new DocAttributes(new Interner()), vectors: make() });

  it('loads the graph from its own file (no rebuild), with attributes and postings, and answers as before', async () => {
    const { vectors, query } = saved();
    expect(sideFiles('.hnsw')).toHaveLength(1);
    expect(sideFiles('.f32')).toHaveLength(1);
    const into = fresh();
    const r = loadIndexParts(path, about, into);
    expect(r).toMatchObject({ ok: true, covers: 42 });
    expect(await (r.ok && r.checked)).toEqual({ ok: true });
    expect(into.vectors.stats()).toEqual(vectors.stats());
    expect(into.vectors.stats().mode).toBe('hnsw');
    expect(into.vectors.search(query, 10)).toEqual(vectors.search(query, 10));
    const pred = into.attrs.compile({ userId: 'u1' }, ['event'], 1000)!;
    expect(into.attrs.accepts(1, pred)).toBe(true);
    expect(into.attrs.accepts(4, pred)).toBe(false);
    expect(into.attrs.accepts(5, into.attrs.compile(undefined, undefined, 1000)!)).toBe(false); // expired at 123
    expect(r.ok && r.lexicon!.search(['zebra'], 200).length).toBe(143);
  });

  it('until its side files are checked, a restored index answers exactly from its i8 rows; then it uses the graph', async () => {
    const { vectors, query } = saved();
    const into = fresh();
    const r = loadIndexParts(path, about, into);
    expect(into.vectors.stats()).toMatchObject({ mode: 'exact', verifying: true });
    const early = into.vectors.search(query, 10);
    // i8 ranking: the same ids as the f32 answer here (scores are the i8 estimates, within quantization error).
    expect(early.map((h) => h.id).sort()).toEqual(vectors.search(query, 10).map((h) => h.id).sort());
    // A write while the check runs reaches the graph once it is attached.
    into.vectors.add(5000, query);
    expect(await (r.ok && r.checked)).toEqual({ ok: true });
    expect(into.vectors.stats().mode).toBe('hnsw');
    expect(into.vectors.search(query, 1)[0]).toMatchObject({ id: 5000 });
  });

  it('the f32 rows are read in place: the saved row file is never written, later rows go elsewhere', async () => {
    const { query } = saved();
    const rows = join(dir, sideFiles('.f32')[0]!);
    const before = readFileSync(rows);
    const into = fresh();
    const r = loadIndexParts(path, about, into);
    await (r.ok && r.checked);
    const moved = new Float32Array(DIM).fill(0);
    moved[0] = 1;
    into.vectors.add(3, moved); // overwrites a saved row
    into.vectors.remove(10); // moves the last row into slot 10
    expect(readFileSync(rows).equals(before)).toBe(true);
    expect(into.vectors.search(moved, 1)[0]).toMatchObject({ id: 3, score: expect.closeTo(1, 5) as number });
    expect(into.vectors.search(query, 10).some((h) => h.id === 10)).toBe(false);
    // Saved again: a new row file holds the changed rows; it reads back the same answers.
    saveIndexParts(path, about, 43, { attrs: into.attrs, vectors: into.vectors });
    expect(sideFiles('.f32')).toHaveLength(1);
    const again = { ...fresh(), lexicon: false };
    const r2 = loadIndexParts(path, about, again);
    expect(await (r2.ok && r2.checked)).toEqual({ ok: true });
    expect(again.vectors.search(moved, 1)).toEqual(into.vectors.search(moved, 1));
    expect(again.vectors.search(query, 10)).toEqual(into.vectors.search(query, 10));
    into.vectors.close();
    again.vectors.close();
  });

  it('after the files were deleted (docs forgotten), a viewed graph is not saved again: the next load builds one', async () => {
    saved();
    const into = fresh();
    await (loadIndexParts(path, about, into) as { checked: Promise<unknown> }).checked;
    expect(into.vectors.stats().mode).toBe('hnsw');
    into.vectors.remove(7);
    dropIndexParts(path);
    expect(readdirSync(dir)).toEqual([]);
    saveIndexParts(path, about, 50, { attrs: into.attrs, vectors: into.vectors });
    expect(sideFiles('.hnsw')).toEqual([]);
    const again = { ...fresh(), lexicon: false };
    const r = loadIndexParts(path, about, again);
    expect(await (r.ok && r.checked)).toEqual({ ok: true });
    expect(again.vectors.stats()).toMatchObject({ mode: 'hnsw', size: 999 }); // built inline once the rows passed
  });

  it('a saved file is replaced whole, and the side files it no longer names are removed', () => {
    saved();
    const first = sideFiles('.hnsw');
    const other = make();
    const data = new ClusteredVectors(DIM, 500, { seed: 9 });
    for (let i = 0; i < 500; i++) other.add(i, data.next());
    saveIndexParts(path, about, 43, { attrs: new DocAttributes(new Interner()), vectors: other });
    const now = sideFiles('.hnsw');
    expect(now).toHaveLength(1);
    expect(now).not.toEqual(first);
    expect(sideFiles('.f32')).toHaveLength(1);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('a missing or truncated side file makes the file unusable at once (the caller rebuilds)', () => {
    saved();
    const graph = join(dir, sideFiles('.hnsw')[0]!);
    const rows = join(dir, sideFiles('.f32')[0]!);
    truncateSync(rows, 100);
    expect(loadIndexParts(path, about, fresh())).toMatchObject({ ok: false, fault: 'truncated' });
    rmSync(rows);
    expect(loadIndexParts(path, about, fresh())).toMatchObject({ ok: false, fault: 'missing' });
    saved();
    rmSync(join(dir, sideFiles('.hnsw')[0]!));
    expect(loadIndexParts(path, about, fresh())).toMatchObject({ ok: false, fault: 'missing' });
    expect(graph).toBeTruthy();
    expect(loadIndexParts(path, { ...about, tenant: 'other' }, fresh())).toMatchObject({ ok: false, fault: 'mismatch' });
  });

  for (const ext of ['.hnsw', '.f32']) {
    it(`a corrupt ${ext} side file fails the background check, and the graph is never attached`, async () => {
      saved();
      flip(join(dir, sideFiles(ext)[0]!));
      const into = fresh();
      const r = loadIndexParts(path, about, into);
      expect(r.ok).toBe(true);
      expect(await (r.ok && r.checked)).toMatchObject({ ok: false, fault: 'corrupt' });
      expect(into.vectors.stats()).toMatchObject({ mode: 'exact', verifying: true });
    });
  }

  it('a corrupt index file is detected when read (its sections are checked whole)', () => {
    saved();
    flip(path);
    expect(loadIndexParts(path, about, fresh())).toMatchObject({ ok: false, fault: 'corrupt' });
  });
});
