/**
 * Token budget: fills sections in priority order, items within a section by score, and admits an item only if
 * the *rendered text* (headers, provenance tags, conflict notes included) still fits `token_budget` as counted
 * by the real tokenizer. Counting the final string rather than summing item sizes matters: BPE counts are not
 * additive across joins, and headers and tags cost tokens too.
 *
 * An item that does not fit whole is truncated only if what remains keeps its meaning — at least half of its
 * tokens and at least MIN_TRUNCATED_TOKENS, cut back to a sentence or word boundary and marked with "…";
 * otherwise it is dropped and smaller, lower-priority items may still fit. A conflict note is added as soon as
 * an item it talks about is in, if it fits.
 *
 * Reserved items (the counter-example slot) are admitted before any section fills, so they survive every budget
 * that can hold them; they still render in their own section's place. Causal-chain lines come last: each is
 * added, if it fits, once one of its episodes is in the selection.
 *
 * Invariant (property-tested): tokens.count(text) ≤ budget, always.
 *
 * Cost: re-counting the whole text for every candidate made fitting quadratic (it was a large share of a
 * getContext). An item is admitted on an upper bound instead while that bound fits:
 *   count(text + item) ≤ count(text) + count(item line) + count(its header, if the section is new) + JOIN_SLACK
 * (BPE pre-tokenization only re-merges at the junctions, which the slack covers). The running count is that
 * bound, refreshed with an exact count whenever the bound no longer fits; the final string is counted exactly
 * and trimmed if ever needed, so the invariant never rests on the bound.
 */
import type { TokenCounter } from '../core/tokens.js';
import { renderLine, renderText, sectionBlock, type RenderOptions, type RenderSection, type RenderedEntry } from './render.js';
import { itemBody } from './render.js';
import type { SectionSpec } from './sections.js';
import type { Candidate, ConflictNote } from './types.js';

export const MIN_TRUNCATED_TOKENS = 12;
/** Tokens an insertion can add beyond its parts: a re-merge at each of its two junctions, with room to spare. */
export const JOIN_SLACK = 8;
/** A truncated item keeps at least this share of its tokens, or it is dropped. */
export const MIN_TRUNCATED_SHARE = 0.5;

export interface BudgetInput {
  /** In priority order; items within a section by descending score. */
  sections: { spec: SectionSpec; items: Candidate[] }[];
  notes: ConflictNote[];
  budget: number;
  tokens: TokenCounter;
  render: RenderOptions;
  /** The full body of an item (default `itemBody`; the caller may wrap it, e.g. to scrub PII). */
  body?: ((c: Candidate) => string) | undefined;
  /** Record ids admitted first, before any section fills (the counter-example). */
  reserved?: ReadonlySet<string> | undefined;
  /** Causal-chain lines, each with the episodes it is about; lowest priority. */
  chains?: readonly { text: string; episodeIds: readonly string[] }[] | undefined;
}

export interface BudgetResult {
  sections: RenderSection[];
  notes: ConflictNote[];
  text: string;
  used: number;
  /** Items that did not fit. */
  dropped: number;
  /** Indexes (into `BudgetInput.chains`) of the chain lines admitted, in order. */
  chains: number[];
}

/**
 * Cuts `body` to at most `maxTokens` tokens (ellipsis included) at a sentence or word boundary, or returns
 * undefined when the result would no longer carry the item's meaning.
 */
export function truncateWithMeaning(body: string, maxTokens: number, tokens: TokenCounter): string | undefined {
  const total = tokens.count(body);
  const floor = Math.max(MIN_TRUNCATED_TOKENS, Math.ceil(total * MIN_TRUNCATED_SHARE));
  if (maxTokens < floor || total <= floor) return undefined;
  const prefix = tokens.truncate(body, maxTokens - 1);
  // Prefer ending on a sentence, then on a word, then anywhere — the first cut that still keeps enough.
  const sentenceEnd = prefix.search(/[.!?;](?=\s[^.!?;]*$)/);
  const cuts = [
    sentenceEnd > 0 ? prefix.slice(0, sentenceEnd + 1) : undefined,
    prefix.includes(' ') ? prefix.slice(0, prefix.lastIndexOf(' ')) : undefined,
    prefix,
  ];
  for (const cut of cuts) {
    if (cut === undefined) continue;
    const out = `${cut.trimEnd()}…`;
    const n = tokens.count(out);
    if (n <= maxTokens && n >= floor) return out;
  }
  return undefined;
}

class Selection {
  readonly chosen = new Map<string, RenderedEntry[]>();
  readonly notes: ConflictNote[] = [];
  readonly ids = new Set<string>();
  readonly chains: string[] = [];

  constructor(private readonly specs: readonly SectionSpec[]) {
    for (const s of specs) this.chosen.set(s.name, []);
  }

  /** What adding `entry` to `section` renders on its own: its line, and the header when the section is new. */
  addition(section: string, entry: RenderedEntry, opts: RenderOptions): string {
    const line = renderLine(entry, opts);
    if (this.chosen.get(section)!.length > 0) return line;
    const title = this.specs.find((s) => s.name === section)!.title;
    return sectionBlock(opts.scrub ? opts.scrub(title) : title, [line]);
  }

  sections(extra?: { section: string; entry: RenderedEntry }): RenderSection[] {
    return this.specs.map((spec) => {
      const entries = this.chosen.get(spec.name)!;
      return { spec, entries: extra && extra.section === spec.name ? [...entries, extra.entry] : entries };
    });
  }

  text(opts: RenderOptions, extra?: { section: string; entry: RenderedEntry }, extraNote?: ConflictNote, extraChain?: string): string {
    const notes = extraNote ? [...this.notes, extraNote] : this.notes;
    const chains = extraChain === undefined ? this.chains : [...this.chains, extraChain];
    return renderText(this.sections(extra), notes.map((n) => n.note), opts, chains);
  }

  add(section: string, entry: RenderedEntry): void {
    this.chosen.get(section)!.push(entry);
    this.ids.add(entry.candidate.doc.refId);
  }
}

export function fitBudget(input: BudgetInput): BudgetResult {
  const { budget, tokens, render } = input;
  const sel = new Selection(input.sections.map((s) => s.spec));
  const fits = (text: string) => tokens.count(text) <= budget;
  const pendingNotes = [...input.notes];
  let dropped = 0;
  /** An upper bound of (or exactly) the token count of the selection's text so far. */
  let used = 0;
  /** Counts `text` exactly; if it fits, it becomes the running count. */
  const fitsExactly = (text: string): boolean => {
    const n = tokens.count(text);
    if (n > budget) return false;
    used = n;
    return true;
  };

  const admitNotes = () => {
    for (let i = 0; i < pendingNotes.length; i++) {
      const note = pendingNotes[i]!;
      const relevant = note.itemIds.some((id) => sel.ids.has(id) && !note.droppedIds.includes(id));
      if (relevant && fitsExactly(sel.text(render, undefined, note))) {
        sel.notes.push(note);
        pendingNotes.splice(i--, 1);
      }
    }
  };

  const admit = (section: string, candidate: Candidate): boolean => {
    const body = (input.body ?? itemBody)(candidate);
    const whole = { section, entry: { candidate, body, truncated: false } };
    const bound = used + tokens.count(sel.addition(section, whole.entry, render)) + JOIN_SLACK;
    if (bound <= budget || fitsExactly(sel.text(render, whole))) {
      if (bound <= budget) used = bound;
      sel.add(section, whole.entry);
      admitNotes();
      return true;
    }
    const cut = truncateToFit(sel, section, candidate, body, input);
    if (!cut) return false;
    sel.add(section, cut);
    used = tokens.count(sel.text(render));
    admitNotes();
    return true;
  };

  const reserved = input.reserved ?? new Set<string>();
  for (const { spec, items } of input.sections) {
    for (const candidate of items) if (reserved.has(candidate.doc.refId) && !admit(spec.name, candidate)) dropped++;
  }
  for (const { spec, items } of input.sections) {
    for (const candidate of items) {
      if (reserved.has(candidate.doc.refId)) continue;
      if (!admit(spec.name, candidate)) dropped++;
    }
  }
  const chains: number[] = [];
  (input.chains ?? []).forEach((chain, i) => {
    if (!chain.episodeIds.some((id) => sel.ids.has(id))) return;
    if (fitsExactly(sel.text(render, undefined, undefined, chain.text))) {
      sel.chains.push(chain.text);
      chains.push(i);
    }
  });

  // The guarantee is checked on the final string; trimming here only runs if a rule above were ever wrong.
  let text = sel.text(render);
  while (!fits(text)) {
    if (sel.chains.length > 0) {
      sel.chains.pop();
      chains.pop();
    } else if (sel.notes.length > 0) sel.notes.pop();
    else if (!dropLast(sel)) break;
    else dropped++;
    text = sel.text(render);
  }
  return { sections: sel.sections(), notes: sel.notes, text, used: tokens.count(text), dropped, chains };
}

function truncateToFit(sel: Selection, section: string, candidate: Candidate, body: string, input: BudgetInput): RenderedEntry | undefined {
  const { tokens, budget, render } = input;
  const shell = tokens.count(sel.text(render, { section, entry: { candidate, body: '', truncated: true } }));
  // Token counts are not additive across joins: shrink the allowance a few times until the whole text fits.
  let allowance = budget - shell;
  for (let attempt = 0; attempt < 8 && allowance >= MIN_TRUNCATED_TOKENS; attempt++, allowance--) {
    const cut = truncateWithMeaning(body, allowance, tokens);
    if (cut === undefined) continue;
    const entry = { candidate, body: cut, truncated: true };
    if (tokens.count(sel.text(render, { section, entry })) <= budget) return entry;
  }
  return undefined;
}

function dropLast(sel: Selection): boolean {
  for (const entries of [...sel.chosen.values()].reverse()) {
    const last = entries.pop();
    if (last) {
      sel.ids.delete(last.candidate.doc.refId);
      return true;
    }
  }
  return false;
}
