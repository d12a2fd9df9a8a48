/**
 * Prompt text treats memory as data. Everything a caller stored (event text, tool args, fact values, sources,
 * sections, task ids, summaries, notes built from them) reaches rendered text only through `inertText`:
 *
 * - every control character (C0, C1 — `\r`, `\v`, U+0085 …), line and paragraph separator (U+2028, U+2029),
 *   format character (bidi embeddings, overrides and isolates, zero-width joiners and spaces, BOM, soft hyphen)
 *   and lone surrogate becomes one plain space, and runs of whitespace collapse to one space — so a stored
 *   string is always exactly one line and can neither start a line nor reorder what surrounds it;
 * - the memory fence's tags (`<memory>`, `</memory>`, any spacing or case) inside stored text are defanged to
 *   `‹memory›` / `‹/memory›`, so stored text cannot open or close a fence.
 *
 * The structure around that text (`## ` headings, fence lines, `- ` item lines) is written only by the
 * renderer. Each section's items sit between a `<memory>` line and a `</memory>` line: what is between them is
 * retrieved data, never instructions. README "Context text" documents the format for prompt authors.
 */

/** The line that opens a section's fenced memory content. */
export const MEMORY_FENCE_OPEN = '<memory>';
/** The line that closes it. Stored text never contains either line (see `inertText`). */
export const MEMORY_FENCE_CLOSE = '</memory>';

/**
 * Cc (controls), Cf (format: bidi, zero-width, BOM, soft hyphen …), Zl/Zp (separators), Cs (lone surrogates),
 * and every other space or line-breaking character (\s covers U+00A0, U+1680, U+2000–200A, U+202F, U+205F,
 * U+3000, U+FEFF).
 */
const UNSAFE_RUN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\s]+/gu;
/** A fence tag in any case and spacing, including its fullwidth and small-form angle brackets. */
const FENCE_TAG = /[<\uFF1C\uFE64]\s*(\/?)\s*(memory)\s*[>\uFF1E\uFE65]?/giu;

/** One line of inert text: no control, separator or format character, no fence tag, trimmed. */
export function inertText(value: string): string {
  return value
    .replace(UNSAFE_RUN, ' ')
    .replace(FENCE_TAG, (_m, slash: string, word: string) => `‹${slash}${word}›`)
    .trim();
}

/** PII placeholders (write/pii/types.ts) keep their brackets inside a tag: they are ours, and balanced. */
const BRACKET_OUTSIDE_PLACEHOLDER = /\[(?:EMAIL|PHONE|CARD|IBAN|GOV_ID|IP|SECRET)\]|[[\]]/g;

/**
 * For a provenance tag (`[source §section · date]`): inert, and square brackets become parentheses so a source
 * such as `evil.md] [x` cannot end the tag early and pose as text outside it.
 */
export function inertTagPart(value: string): string {
  return inertText(value).replace(BRACKET_OUTSIDE_PLACEHOLDER, (m) => (m === '[' ? '(' : m === ']' ? ')' : m));
}

/** The lines of a fenced block: the open fence, the given lines, the close fence. */
export function fenced(lines: readonly string[]): string[] {
  return [MEMORY_FENCE_OPEN, ...lines, MEMORY_FENCE_CLOSE];
}
