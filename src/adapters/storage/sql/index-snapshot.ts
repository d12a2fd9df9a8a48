/**
 * A tenant's in-process indexes (BM25 postings, doc attributes, vectors with their HNSW graph) to and from one
 * index file (index-file.ts) and, for a large vector index, files beside it that are used in place:
 *
 *   <file>.<crc>-<bytes>.f32    the f32 rows (the index reads them from there, writes go to a scratch file)
 *   <file>.<crc>-<bytes>.hnsw   the HNSW graph (viewed, memory-mapped) and, once it changed, its delta graph
 *
 * The side files are named by their CRC-32 and size, so two writers never replace each other's file under an
 * index file that names it, and an unchanged graph is named again rather than rewritten. The index file itself
 * (ids, i8 rows, postings, attributes) is checked whole when read; the side files are checked for presence and
 * size at once and by checksum in the background, while the vector index answers exactly from its i8 rows.
 * Whatever cannot be read back is reported as a fault, so the caller rebuilds from the rows.
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Bm25Index } from '../../lexical/bm25-index.js';
import { fileCrc32, fileCrc32Sync } from '../../vector/crc32.js';
import { exportVectorState, restoreVectorState, type VectorIndexState } from '../../vector/index.js';
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

/**
 * Layout of the BM25 sections (bump when it changes; a file of another layout is reported as of an older
 * version, so the lexicon is rebuilt from the rows while the file's vectors stay usable): 2 saves the postings
 * themselves (1 saved per-doc term counts, from which every open rebuilt the postings).
 */
export const LEX_LAYOUT = 2;

/** A side file as the index file names it. */
interface SideFile {
  name: string;
  crc: number;
  bytes: number;
}
type SideFiles = Partial<Record<'rows' | 'graph' | 'delta', SideFile>>;

/** Side files whose checksum this process knows (written or checked by it), by path. */
const known = new Map<string, SideFile>();

const SIDE = /\.(hnsw|f32)$/;
const tmpOf = (path: string, what: string) => `${path}.${process.pid}.${what}.tmp`;

/** Renames a freshly written side file to its checksum name beside `path`. */
function settle(path: string, tmp: string, ext: string, crc?: number): SideFile {
  const c = crc ?? fileCrc32Sync(tmp);
  const bytes = statSync(tmp).size;
  const name = `${basename(path)}.${c.toString(16).padStart(8, '0')}-${bytes}.${ext}`;
  const final = join(dirname(path), name);
  renameSync(tmp, final);
  const f = { name, crc: c, bytes };
  known.set(final, f);
  return f;
}

/** Saves `parts` as covering change-feed position `covers`. Returns the bytes written. */
export function saveIndexParts(path: string, describes: IndexFileHeader['describes'], covers: number, parts: IndexParts): number {
  const sections: Record<string, Section> = {};
  const info: Record<string, number> = {};
  if (parts.lexicon) {
    const l = parts.lexicon.exportState();
    Object.assign(sections, { 'lex.terms': stringsSection(l.terms), 'lex.ids': l.ids, 'lex.lengths': l.lengths, 'lex.start': l.start, 'lex.slots': l.slots, 'lex.tfs': l.tfs });
    info.lexLayout = LEX_LAYOUT;
  }
  const a = parts.attrs.exportState();
  Object.assign(sections, { 'attr.ids': a.ids, 'attr.codes': a.codes, 'attr.expires': a.expires, 'attr.strings': stringsSection(a.strings) });
  const side: SideFiles = {};
  if (parts.vectors) {
    const tmp = { rows: tmpOf(path, 'rows'), graph: tmpOf(path, 'graph') };
    try {
      const v = exportVectorState(parts.vectors, tmp);
      if (v) Object.assign(sections, vectorSections(path, v, tmp, side, info));
    } finally {
      rmSync(tmp.rows, { force: true });
      rmSync(tmp.graph, { force: true });
    }
  }
  sections['vec.files'] = Buffer.from(JSON.stringify(side), 'utf8');
  const bytes = writeIndexFile(path, { describes, covers, info }, sections);
  removeUnnamed(path, new Set(Object.values(side).map((f) => f.name)));
  return bytes + Object.values(side).reduce((n, f) => n + f.bytes, 0);
}

function vectorSections(path: string, v: VectorIndexState, tmp: { rows: string; graph: string }, side: SideFiles, info: Record<string, number>): Record<string, Section> {
  const out: Record<string, Section> = { 'vec.ids': v.ids };
  if (v.compact) {
    Object.assign(out, { 'vec.i8': v.compact.rows, 'vec.scales': v.compact.scales, 'vec.tails': v.compact.tails });
    side.rows = settle(path, tmp.rows, 'f32', v.compact.rowsCrc);
  } else if (v.rows) {
    out['vec.rows'] = v.rows;
  }
  // A viewed graph whose base file was deleted (docs were forgotten: it holds their vectors) is not saved; the
  // next load builds a new graph in the background.
  const g = v.graph?.layered && !existsSync(v.graph.layered.base) ? undefined : v.graph;
  if (g) {
    if (g.layered) {
      // A viewed graph: its base file is named again as it is, the delta (if any) was written to tmp.graph.
      const base = known.get(g.layered.base) ?? sideOf(g.layered.base);
      side.graph = base;
      if (g.layered.delta) side.delta = settle(path, tmp.graph, 'hnsw');
      out['vec.removed'] = g.layered.removed;
    } else {
      side.graph = settle(path, tmp.graph, 'hnsw');
    }
    out['vec.pending'] = g.pending;
    Object.assign(info, { graphLive: g.live, graphBaseRemoved: g.baseRemoved, graphDeltaRemoved: g.deltaRemoved });
  }
  return out;
}

/** A side file's entry from the file itself (a base graph viewed before this process knew its checksum). */
function sideOf(file: string): SideFile {
  const f = { name: basename(file), crc: fileCrc32Sync(file), bytes: statSync(file).size };
  known.set(file, f);
  return f;
}

/** Deletes the side files of `path` that `keep` does not name (older saves' rows and graphs). */
function removeUnnamed(path: string, keep: ReadonlySet<string>): void {
  const stem = `${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const f of names) {
    if (f.startsWith(stem) && SIDE.test(f) && !keep.has(f)) {
      rmSync(join(dirname(path), f), { force: true });
      known.delete(join(dirname(path), f));
    }
  }
}

/**
 * Deletes a saved index file and its side files. Called when docs are removed (forget, redaction, expiry), so no
 * forgotten term, attribute or vector outlives them on disk; the loaded structure is saved again later.
 */
export function dropIndexParts(path: string): void {
  rmSync(path, { force: true });
  removeUnnamed(path, new Set());
}

/** Why a file loaded in place cannot be used after all (its background check failed). */
export type CheckResult = { ok: true } | { ok: false; fault: IndexFileFault; detail: string };

export type LoadedParts =
  | {
      ok: true;
      covers: number;
      lexicon?: Bm25Index;
      /** The background check of side files used in place; on a fault the caller drops what it loaded. */
      checked?: Promise<CheckResult>;
    }
  | { ok: false; fault: IndexFileFault; detail: string };

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
  if (into.lexicon && file.header.info.lexLayout !== LEX_LAYOUT) {
    return { ok: false, fault: 'version', detail: `lexicon layout ${file.header.info.lexLayout ?? 1}, reader ${LEX_LAYOUT}` };
  }
  try {
    const lexicon = into.lexicon ? lexiconOf(s) : undefined;
    into.attrs.importState({
      ids: sectionAs(s, 'attr.ids', Float64Array),
      codes: sectionAs(s, 'attr.codes', Int32Array),
      expires: sectionAs(s, 'attr.expires', Float64Array),
      strings: sectionStrings(s, 'attr.strings'),
    });
    let checked: Promise<CheckResult> | undefined;
    if (into.vectors) {
      const vectors = loadVectors(path, s, file.header.info, into.vectors);
      if (!vectors.ok) return vectors;
      checked = vectors.checked;
    }
    return { ok: true, covers: file.header.covers, ...(lexicon ? { lexicon } : {}), ...(checked ? { checked } : {}) };
  } catch (e) {
    return { ok: false, fault: 'corrupt', detail: (e as Error).message };
  }
}

type Sections = Map<string, Buffer>;
type FileInfo = IndexFileHeader['info'];

function lexiconOf(s: Sections): Bm25Index {
  return Bm25Index.fromState({
    terms: sectionStrings(s, 'lex.terms'),
    ids: sectionAs(s, 'lex.ids', Float64Array),
    lengths: sectionAs(s, 'lex.lengths', Float64Array),
    start: sectionAs(s, 'lex.start', Int32Array),
    slots: sectionAs(s, 'lex.slots', Int32Array),
    tfs: sectionAs(s, 'lex.tfs', Uint16Array),
  });
}

/**
 * Restores `vectors` from the file's sections and its side files (sizes checked now, CRCs in the background:
 * `checked`). Throws on a malformed section, as the reads above it do.
 */
function loadVectors(
  path: string,
  s: Sections,
  info: FileInfo,
  vectors: VectorIndex,
): { ok: true; checked: Promise<CheckResult> | undefined } | { ok: false; fault: IndexFileFault; detail: string } {
  if (!s.has('vec.ids')) return { ok: false, fault: 'mismatch', detail: 'the file holds no vectors' };
  const side = JSON.parse((s.get('vec.files') ?? Buffer.from('{}')).toString('utf8')) as SideFiles;
  const dir = dirname(path);
  const at = (f: SideFile) => join(dir, f.name);
  for (const f of Object.values(side)) {
    if (!existsSync(at(f))) return { ok: false, fault: 'missing', detail: `side file ${f.name}` };
    const size = statSync(at(f)).size;
    if (size !== f.bytes) return { ok: false, fault: size < f.bytes ? 'truncated' : 'corrupt', detail: `side file ${f.name}: ${size} of ${f.bytes} bytes` };
  }
  const state = vectorState(s, info, side, at);
  const sideList = Object.values(side);
  const check = sideList.length > 0 ? checkSideFiles(sideList.map((f) => ({ ...f, path: at(f) }))) : undefined;
  const verified = check?.then((r) => r.ok);
  const files = { rows: side.rows ? at(side.rows) : '', graph: side.graph ? at(side.graph) : '', delta: side.delta ? at(side.delta) : undefined };
  if (!restoreVectorState(vectors, state, files, verified)) {
    return { ok: false, fault: 'mismatch', detail: 'this vector index cannot be restored' };
  }
  // Settles after the index has taken the verdict (its handler was registered first).
  return { ok: true, checked: verified?.then(() => check!) };
}

/** The vector index's state as the file's sections and side files hold it. */
function vectorState(s: Sections, info: FileInfo, side: SideFiles, at: (f: SideFile) => string): VectorIndexState {
  return {
    ids: sectionAs(s, 'vec.ids', Float64Array),
    ...(s.has('vec.rows') ? { rows: sectionAs(s, 'vec.rows', Float32Array) } : {}),
    ...(s.has('vec.i8') && side.rows
      ? {
          compact: {
            rows: sectionAs(s, 'vec.i8', Int8Array),
            scales: sectionAs(s, 'vec.scales', Float32Array),
            tails: sectionAs(s, 'vec.tails', Float64Array),
            rowsCrc: side.rows.crc,
          },
        }
      : {}),
    ...(side.graph
      ? {
          graph: {
            live: info.graphLive ?? 0,
            baseRemoved: info.graphBaseRemoved ?? 0,
            deltaRemoved: info.graphDeltaRemoved ?? 0,
            pending: sectionAs(s, 'vec.pending', Float64Array),
            ...(s.has('vec.removed') ? { layered: { base: at(side.graph), removed: sectionAs(s, 'vec.removed', Float64Array) } } : {}),
          },
        }
      : {}),
  };
}

/** Checks side files by their CRC-32, one after another, in the background. */
async function checkSideFiles(files: (SideFile & { path: string })[]): Promise<CheckResult> {
  for (const f of files) {
    let crc: number;
    try {
      crc = await fileCrc32(f.path);
    } catch (e) {
      return { ok: false, fault: 'missing', detail: `side file ${f.name}: ${(e as Error).message}` };
    }
    if (crc !== f.crc) return { ok: false, fault: 'corrupt', detail: `side file ${f.name}: checksum mismatch` };
    known.set(f.path, { name: f.name, crc: f.crc, bytes: f.bytes });
  }
  return { ok: true };
}
