/**
 * A tenant's in-process indexes (BM25 postings, doc attributes, vectors with their HNSW graph) to and from one
 * index file (index-file.ts). The SQLite adapter saves its lexical and vector caches as two files; PostgreSQL
 * saves both in one. Whatever cannot be read back is reported as a fault, so the caller rebuilds from the rows.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Bm25Index } from '../../lexical/bm25-index.js';
import { exportVectorState, restoreVectorState } from '../../vector/index.js';
import type { VectorIndex } from '../../../ports/vector-index.js';
import type { DocAttributes } from './doc-attributes.js';
import {
  readIndexFile,
  sectionAs,
  sectionStrings,
  stringsSection,
  writeIndexFile,
  type IndexFileFault,
  type IndexFileHeader,
  type Section,
} from './index-file.js';

export interface IndexParts {
  lexicon?: Bm25Index;
  attrs: DocAttributes;
  vectors?: VectorIndex;
}

const scratch = (path: string) => `${path}.${process.pid}.graph.tmp`;

/** Saves `parts` as covering change-feed position `covers`. Returns the bytes written. */
export function saveIndexParts(path: string, describes: IndexFileHeader['describes'], covers: number, parts: IndexParts): number {
  const sections: Record<string, Section> = {};
  const info: Record<string, number> = {};
  if (parts.lexicon) {
    const l = parts.lexicon.exportState();
    Object.assign(sections, { 'lex.terms': stringsSection(l.terms), 'lex.ids': l.ids, 'lex.lengths': l.lengths, 'lex.offsets': l.offsets, 'lex.counts': l.counts });
  }
  const a = parts.attrs.exportState();
  Object.assign(sections, { 'attr.ids': a.ids, 'attr.codes': a.codes, 'attr.expires': a.expires, 'attr.strings': stringsSection(a.strings) });
  let graphFile: string | undefined;
  if (parts.vectors) {
    const tmp = scratch(path);
    try {
      const v = exportVectorState(parts.vectors, tmp);
      if (v) {
        Object.assign(sections, { 'vec.ids': v.ids, 'vec.rows': v.rows });
        if (v.graph) {
          // The graph stays in usearch's own file beside this one (loaded from there, never copied), named by
          // its checksum so two writers never replace each other's graph under a file that names it.
          const sha = fileSha256(tmp);
          graphFile = `${basename(path)}.${sha.slice(0, 16)}.hnsw`;
          renameSync(tmp, join(dirname(path), graphFile));
          Object.assign(sections, { 'vec.pending': v.graph.pending, 'vec.graph': stringsSection([graphFile, sha]) });
          info.graphLive = v.graph.live;
          info.graphRemoved = v.graph.removed;
        }
      }
    } finally {
      rmSync(tmp, { force: true });
    }
  }
  const bytes = writeIndexFile(path, { describes, covers, info }, sections);
  // Graph files no index file names any more.
  const stem = `${basename(path)}.`;
  for (const f of readdirSync(dirname(path))) {
    if (f.startsWith(stem) && f.endsWith('.hnsw') && f !== graphFile) rmSync(join(dirname(path), f), { force: true });
  }
  return bytes;
}

/**
 * Deletes a saved index file and its graph files. Called when docs are removed (forget, redaction, expiry), so no
 * forgotten term, attribute or vector outlives them on disk; the loaded structure is saved again later.
 */
export function dropIndexParts(path: string): void {
  rmSync(path, { force: true });
  const stem = `${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const f of names) if (f.startsWith(stem) && f.endsWith('.hnsw')) rmSync(join(dirname(path), f), { force: true });
}

function fileSha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}



export type LoadedParts = { ok: true; covers: number; lexicon?: Bm25Index } | { ok: false; fault: IndexFileFault; detail: string };

/**
 * Reads a file into `attrs` and `vectors` (both empty) and a new lexicon (when `lexicon`). On a fault nothing
 * is kept: `attrs` and `vectors` are cleared again by the caller dropping them.
 */
export function loadIndexParts(
  path: string,
  describes: IndexFileHeader['describes'],
  into: { lexicon: boolean; attrs: DocAttributes; vectors?: VectorIndex },
): LoadedParts {
  const file = readIndexFile(path, describes);
  if (!file.ok) return file;
  const s = file.sections;
  try {
    const lexicon = into.lexicon
      ? Bm25Index.fromState({
          terms: sectionStrings(s, 'lex.terms'),
          ids: sectionAs(s, 'lex.ids', Float64Array),
          lengths: sectionAs(s, 'lex.lengths', Float64Array),
          offsets: sectionAs(s, 'lex.offsets', Int32Array),
          counts: sectionAs(s, 'lex.counts', Int32Array),
        })
      : undefined;
    into.attrs.importState({
      ids: sectionAs(s, 'attr.ids', Float64Array),
      codes: sectionAs(s, 'attr.codes', Int32Array),
      expires: sectionAs(s, 'attr.expires', Float64Array),
      strings: sectionStrings(s, 'attr.strings'),
    });
    if (into.vectors) {
      if (!s.has('vec.ids')) return { ok: false, fault: 'mismatch', detail: 'the file holds no vectors' };
      let graphPath = '';
      if (s.has('vec.graph')) {
        const [name, sha] = sectionStrings(s, 'vec.graph');
        graphPath = join(dirname(path), name!);
        if (!existsSync(graphPath)) return { ok: false, fault: 'missing', detail: `graph file ${name}` };
        if (fileSha256(graphPath) !== sha) return { ok: false, fault: 'corrupt', detail: `graph file ${name}: checksum mismatch` };
      }
      const state = {
        ids: sectionAs(s, 'vec.ids', Float64Array),
        rows: sectionAs(s, 'vec.rows', Float32Array),
        ...(graphPath
          ? { graph: { live: file.header.info.graphLive ?? 0, removed: file.header.info.graphRemoved ?? 0, pending: sectionAs(s, 'vec.pending', Float64Array) } }
          : {}),
      };
      if (!restoreVectorState(into.vectors, state, graphPath)) return { ok: false, fault: 'mismatch', detail: 'this vector index cannot be restored' };
    }
    return { ok: true, covers: file.header.covers, ...(lexicon ? { lexicon } : {}) };
  } catch (e) {
    return { ok: false, fault: 'corrupt', detail: (e as Error).message };
  }
}
