import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Bm25Index } from '../../lexical/bm25-index.js';
import { resolveVectorIndexOptions } from '../../vector/options.js';
import { ClusteredVectors } from '../../vector/synthetic.test-support.js';
import { UsearchVectorIndex } from '../../vector/usearch-index.js';
import { loadUsearch } from '../../vector/usearch-module.js';
import { DocAttributes, Interner } from './doc-attributes.js';
import { loadIndexParts, saveIndexParts } from './index-snapshot.js';

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

  it('loads the graph from its own file (no rebuild), with attributes and postings, and answers as before', () => {
    const { vectors, query } = saved();
    expect(readdirSync(dir).filter((f) => f.endsWith('.hnsw'))).toHaveLength(1);
    const into = { lexicon: true, attrs: new DocAttributes(new Interner()), vectors: make() };
    const r = loadIndexParts(path, about, into);
    expect(r).toMatchObject({ ok: true, covers: 42 });
    expect(into.vectors.stats()).toEqual(vectors.stats());
    expect(into.vectors.stats().mode).toBe('hnsw');
    expect(into.vectors.search(query, 10)).toEqual(vectors.search(query, 10));
    const pred = into.attrs.compile({ userId: 'u1' }, ['event'], 1000)!;
    expect(into.attrs.accepts(1, pred)).toBe(true);
    expect(into.attrs.accepts(4, pred)).toBe(false);
    expect(into.attrs.accepts(5, into.attrs.compile(undefined, undefined, 1000)!)).toBe(false); // expired at 123
    expect(r.ok && r.lexicon!.search(['zebra'], 200).length).toBe(143);
  });

  it('a saved file is replaced whole, and the graph file it no longer names is removed', () => {
    saved();
    const first = readdirSync(dir).filter((f) => f.endsWith('.hnsw'));
    const other = make();
    const data = new ClusteredVectors(DIM, 500, { seed: 9 });
    for (let i = 0; i < 500; i++) other.add(i, data.next());
    saveIndexParts(path, about, 43, { attrs: new DocAttributes(new Interner()), vectors: other });
    const now = readdirSync(dir).filter((f) => f.endsWith('.hnsw'));
    expect(now).toHaveLength(1);
    expect(now).not.toEqual(first);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('a damaged or missing graph file makes the file unusable (the caller rebuilds)', () => {
    saved();
    const graph = join(dir, readdirSync(dir).find((f) => f.endsWith('.hnsw'))!);
    const b = readFileSync(graph);
    b[b.byteLength >> 1] = b[b.byteLength >> 1]! ^ 1;
    writeFileSync(graph, b);
    const fresh = () => ({ lexicon: true, attrs: new DocAttributes(new Interner()), vectors: make() });
    expect(loadIndexParts(path, about, fresh())).toMatchObject({ ok: false, fault: 'corrupt' });
    rmSync(graph);
    expect(loadIndexParts(path, about, fresh())).toMatchObject({ ok: false, fault: 'missing' });
    expect(loadIndexParts(path, { ...about, tenant: 'other' }, fresh())).toMatchObject({ ok: false, fault: 'mismatch' });
  });
});
