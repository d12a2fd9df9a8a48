/**
 * Splitting a text longer than the content limit into parts that each fit, for imports that opt in (a long
 * transcript turn, a pasted document). Cuts fall at the last paragraph break, else sentence end, else space
 * before the limit, so each part reads on its own; only a run of max characters without any of them is cut
 * mid-word. Parts are trimmed and never empty; concatenated they hold every non-space character of the input.
 */

/** Parts of `text` of at most `max` characters each; `[text]` when it already fits. */
export function splitLongText(text: string, max: number): string[] {
  if (max < 1) return [text];
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    const cut = cutPoint(rest, max);
    const head = rest.slice(0, cut).trim();
    if (head !== '') parts.push(head);
    rest = rest.slice(cut).trim();
  }
  if (rest !== '') parts.push(rest);
  return parts;
}

/** Where to cut `s` (longer than max): the best boundary in its first `max` characters, past the first half. */
function cutPoint(s: string, max: number): number {
  const window = s.slice(0, max);
  const floor = Math.floor(max / 2);
  const paragraph = window.lastIndexOf('\n\n');
  if (paragraph >= floor) return paragraph + 2;
  let sentence = -1;
  for (const m of window.matchAll(/[.!?]["')\]]*\s/g)) sentence = m.index + m[0].length;
  if (sentence >= floor) return sentence;
  const space = Math.max(window.lastIndexOf(' '), window.lastIndexOf('\n'));
  return space >= floor ? space + 1 : max;
}
