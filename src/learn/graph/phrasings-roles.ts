/** Phrasings that name a role: kinship and work roles ("my wife Maria", "Carol is Alice's manager", "the CTO at Globex") and where a named thing is. */
import { NAME, PRONOUN, START, SUBJECT } from './lexicon.js';

export const FAMILY: Record<string, { type: string; reverse: boolean }> = {
  wife: { type: 'married_to', reverse: false },
  husband: { type: 'married_to', reverse: false },
  spouse: { type: 'married_to', reverse: false },
  partner: { type: 'dating', reverse: false },
  girlfriend: { type: 'dating', reverse: false },
  boyfriend: { type: 'dating', reverse: false },
  boss: { type: 'manages', reverse: true },
  manager: { type: 'manages', reverse: true },
  supervisor: { type: 'manages', reverse: true },
  friend: { type: 'friend_of', reverse: false },
  colleague: { type: 'colleague_of', reverse: false },
  coworker: { type: 'colleague_of', reverse: false },
  sister: { type: 'sibling_of', reverse: false },
  brother: { type: 'sibling_of', reverse: false },
  mother: { type: 'parent_of', reverse: true },
  mom: { type: 'parent_of', reverse: true },
  father: { type: 'parent_of', reverse: true },
  dad: { type: 'parent_of', reverse: true },
  son: { type: 'parent_of', reverse: false },
  daughter: { type: 'parent_of', reverse: false },
  kid: { type: 'parent_of', reverse: false },
  child: { type: 'parent_of', reverse: false },
  report: { type: 'manages', reverse: false },
  nephew: { type: 'relative_of', reverse: false },
  niece: { type: 'relative_of', reverse: false },
  uncle: { type: 'relative_of', reverse: false },
  aunt: { type: 'relative_of', reverse: false },
  cousin: { type: 'relative_of', reverse: false },
  grandson: { type: 'relative_of', reverse: false },
  granddaughter: { type: 'relative_of', reverse: false },
  grandchild: { type: 'relative_of', reverse: false },
  grandmother: { type: 'relative_of', reverse: false },
  grandfather: { type: 'relative_of', reverse: false },
  grandparent: { type: 'relative_of', reverse: false },
  grandma: { type: 'relative_of', reverse: false },
  grandpa: { type: 'relative_of', reverse: false },
};
export const ROLE = Object.keys(FAMILY).join('|');

/** "my wife Maria", "her boss, Carol" → the named person in that role to the possessor. */
export const POSSESSOR = String.raw`[Mm]y|[Hh]is|[Hh]er|[Tt]heir|[Oo]ur`;
export const ROLE_NAMED = new RegExp(String.raw`${START}(${POSSESSOR}|${NAME}'s|${NAME}’s)\s+(?:new\s+|old\s+|former\s+)?(${ROLE})s?,?\s+(${NAME})`, 'gu');
/** "Alice's manager is Carol", "my wife is Maria". */
export const ROLE_IS = new RegExp(String.raw`${START}(${POSSESSOR}|${NAME}'s|${NAME}’s)\s+(?:new\s+)?(${ROLE})\s+(?:is|was)\s+(${NAME})`, 'gu');
/** "Carol is Alice's manager", "Maria is my wife". */
export const IS_ROLE = new RegExp(String.raw`${START}(${NAME}|${PRONOUN})\s+(?:is|was|became)\s+(${POSSESSOR}|${NAME}'s|${NAME}’s)\s+(?:new\s+)?(${ROLE})\b`, 'gu');

/**
 * "X is the CTO at Globex", "I'm the sous-chef at Le Petit Four", "she's the tech lead on Phoenix": a role at a named
 * organisation or on a named project (works_at). Group 3 the preposition, 4 the name.
 */
export const ROLE_AT = new RegExp(
  String.raw`${START}${SUBJECT}\s+(?:((?:is|am|are|was|were))\s+)?(?:now\s+)?(?:the|a|an|our|their|its)\s+(?:new\s+)?(?:[\p{L}-]+\s+){1,3}?(at|for|of|on)\s+(?:the\s+)?(${NAME})`,
  'gu',
);
/** "Salt & Ember is in Bordeaux": where a named place, organisation or thing (not a person) is. */
export const LOCATED = new RegExp(String.raw`${START}(${NAME})\s+(?:is|are)\s+(?:located\s+|based\s+|headquartered\s+)?in\s+(?:the\s+)?(${NAME})`, 'gu');

/**
 * "Leo, the Tigers' goalkeeper, …", "Orion, our billing service, …": an appositive between a name and its verb. Group 1
 * the name, group 2 the appositive (a determiner or a possessive name, then up to 40 characters without a pause).
 */
export const APPOSITIVE = new RegExp(String.raw`${START}(${NAME}),\s+((?:(?:the|our|my|his|her|their|its|a|an)\s+|(?:the\s+)?${NAME}['’]s?\s+)[^,;:—–()]{1,40}?),\s+`, 'gu');
/** An appositive that is a role: "the Tigers' goalkeeper", "Dana's niece", "my aunt" (possessor, role word). */
export const APPOSITIVE_ROLE = new RegExp(String.raw`^(?:the\s+)?(${POSSESSOR}|${NAME}['’]s?)\s+(?:new\s+|old\s+|former\s+)?([a-z][\p{L}-]*)$`, 'u');
/** "Ana and I got married", "Tom and I have been friends", "Jade and Omar are engaged": a pair in a symmetric state. */
export const PAIR_STATE = new RegExp(String.raw`${START}(${NAME})\s+and\s+(I|${NAME})\s+(?:have\s+been|['’]ve\s+been|are|were|got|had\s+been|became)\s+(?:(?:just|finally|happily|now|officially|best|good|close)\s+)?(married|engaged|friends|dating|together)\b`, 'gu');
export const PAIR_TYPES: Record<string, string> = { married: 'married_to', engaged: 'dating', dating: 'dating', together: 'dating', friends: 'friend_of' };
