/**
 * Who speaks in a memory, as far as the read and write paths need to know: a chat speaker with a name of
 * their own ("Melanie", "Dr. Ruiz"), or a role ("user", "assistant", "system", a tool). A role says nothing
 * about whom a sentence is about, so nothing that reads a name as a person (the speaker form of the document
 * vectors, the author field and the other conversation steps) applies to it.
 */

/** Roles that name the person asking an assistant (case-folded). */
export const ASKER_ROLES: ReadonlySet<string> = new Set(['user', 'human']);
/** Roles that name the one who answers the asker (case-folded). */
export const ANSWERER_ROLES: ReadonlySet<string> = new Set(['assistant', 'ai', 'bot', 'model']);

/** Labels that name a part in a dialogue, not a person (case-folded). */
const ROLES = new Set([
  ...ASKER_ROLES,
  ...ANSWERER_ROLES,
  'system',
  'agent',
  'tool',
  'developer',
  'function',
  'customer',
  'support',
  'me',
  'you',
  'unknown',
]);

/** Whether a speaker label names a person rather than a role ("user", "assistant", "Assistant 2", "tool"). */
export function isPersonName(label: string | undefined): boolean {
  if (label === undefined) return false;
  const folded = label.trim().toLowerCase().replace(/[\s_-]*\d+$/, '');
  return folded !== '' && !ROLES.has(folded);
}
