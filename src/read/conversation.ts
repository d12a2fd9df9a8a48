/**
 * Whether the memories a query reaches read as a conversation between people — the evidence the conversation
 * steps need before they switch on (the question form of fuse.ts, the steps of turns.ts, the session neighbours
 * and the author field of expand.ts). They were found on chats between two named people (LoCoMo) and do harm
 * elsewhere: in agent traces a seed's neighbours are routine tool calls; in user–assistant chats the author
 * field names a role, a user's turn that states a fact and then asks loses half its vector evidence to the
 * question form, and the assistant's long answer after it inherits the user's relevance.
 *
 *   conversational  ⇔  among the event candidates (the first 50), messages labelled with a person's name
 *                      (core/speakers.ts: not "user", "assistant", a tool …) are at least half, and they come
 *                      from at least two people.
 *
 * Measured on the repository's corpora (tune halves, hybrid R@10, `npm run bench:corpora`) and LoCoMo; figures in
 * docs/benchmarks.md.
 */
import { isPersonName } from '../core/speakers.js';
import type { Doc } from '../core/types.js';
import { splitLabel } from '../write/document-vectors.js';

/** How many of the best event candidates are looked at. */
export const CONVERSATION_WINDOW = 50;

export function looksConversational(docs: readonly Pick<Doc, 'kind' | 'type' | 'text'>[]): boolean {
  const events = docs.filter((d) => d.kind === 'event').slice(0, CONVERSATION_WINDOW);
  if (events.length === 0) return false;
  const people = new Set<string>();
  let personal = 0;
  for (const d of events) {
    if (d.type !== 'message') continue;
    const { label } = splitLabel(d.text);
    if (!isPersonName(label)) continue;
    personal++;
    people.add(label!.toLowerCase());
  }
  return people.size >= 2 && 2 * personal >= events.length;
}
