/** Phrasings built on a verb ("works at", "reports to", "depends on" …): subject, verb, object, and the type they make. */
import { ADV, GROUP_NOUN, NAME, OBJECT, START, SUBJECT } from './lexicon.js';

/** An intended or starting move before the verb: "is moving over to lead", "is going to join", "plans to move to", "has agreed to coach". */
const INTENT = String.raw`(?:(?:(?:is|are|am|was|were)|['’](?:s|re|m))\s+(?:moving\s+(?:over\s+)?|going\s+|about\s+|planning\s+|set\s+|due\s+|hoping\s+)to\s+|(?:(?:has|have|had)\s+)?(?:agreed|decided|offered|promised|plans?|planned|wants?|wanted|hopes?|hoped|starts?|started|begins?|began)\s+to\s+)?`;
/** A switch named with what it left: "moved our builds from Jenkins to", "switched from Jira to". */
const FROM_TO = String.raw`from\s+(?:\S+\s+){1,3}?to`;

export interface Pattern {
  re: RegExp;
  /** The verb phrase coordinated after another clause, its subject left out ("… and reports to Rita"). */
  coordinated: RegExp;
  /** The verb alone: a cheap test before the full pattern runs. */
  verb: RegExp;
  type: string;
  /** The canonical edge runs object → subject ("Bob reports to Alice": Alice manages Bob). */
  reverse?: boolean;
  /** What the object is when the tagger does not know it. */
  objectType: string;
  subjectType: string;
}

export const p = (verbs: string, type: string, objectType: string, reverse = false, subjectType = 'person'): Pattern => ({
  // "Élodie, who runs …": the relative clause's verb is the name's.
  re: new RegExp(String.raw`${START}${SUBJECT}${GROUP_NOUN}(?:,\s+who)?\s+${INTENT}${ADV}(?:${verbs})\s+${OBJECT}`, 'gu'),
  coordinated: new RegExp(String.raw`\b(?:and|but|then)\s+${ADV}(?:${verbs})\s+${OBJECT}`, 'gu'),
  verb: new RegExp(String.raw`\b(?:${verbs})\s`, 'u'),
  type,
  objectType,
  reverse,
  subjectType,
});

export const PATTERNS: Pattern[] = [
  p(
    String.raw`works?\s+(?:remotely\s+)?(?:at|for)|worked\s+(?:remotely\s+)?(?:at|for)|(?:(?:am|is|are)\s+)?working\s+(?:remotely\s+)?(?:at|for)|is\s+employed\s+(?:at|by)|got\s+a\s+job\s+at|joined|joins?|started\s+working\s+at|(?:is|was)\s+hired\s+by|runs\s+(?:the\s+)?(?:[a-z-]+\s+){1,2}at|accepted\s+an?\s+(?:[a-z-]+\s+){0,2}(?:position|job|role|offer)\s+at`,
    'works_at',
    'organization',
  ),
  p(String.raw`manages?|managed|managing|supervises?|supervising|leads?|is\s+the\s+(?:manager|boss)\s+of|(?:is|was)\s+in\s+charge\s+of`, 'manages', 'person'),
  p(String.raw`reports?\s+to|reported\s+to|reporting\s+to|works?\s+under|(?:is|was|are|were|be)\s+(?:managed|supervised|led)\s+by`, 'manages', 'person', true),
  p(String.raw`maintains?|maintained|(?:is|am|are)\s+maintaining`, 'maintains', 'thing'),
  p(String.raw`(?:is|was|be)\s+maintained\s+by`, 'maintains', 'person', true, 'thing'),
  p(String.raw`coach(?:es)?|coached|(?:is|am|are)\s+coaching`, 'coaches', 'organization'),
  p(String.raw`(?:is|are|was|were|be)\s+coached\s+by`, 'coaches', 'person', true, 'organization'),
  p(String.raw`sponsors|sponsored|(?:is|are)\s+sponsoring`, 'sponsors', 'organization', false, 'organization'),
  p(String.raw`supplies|supplied|(?:is|are)\s+supplying`, 'supplies', 'organization', false, 'organization'),
  p(String.raw`lives?\s+in|lived\s+in|moved\s+to|moves?\s+to|(?:moved|relocated)\s+${FROM_TO}|relocated\s+to|(?:rent|rents|rented|renting|bought|buy|own|owns|share|shares|sharing)\s+(?:a|an|the|our|my|their|his|her)\s+(?:[a-z-]+\s+){0,2}?(?:house|flat|apartment|home|place|condo|studio|cottage|loft)\s+in|is\s+living\s+in|settled\s+in|(?:(?:am|is|are)\s+)?based\s+in`, 'lives_in', 'place'),
  p(String.raw`(?:is|am|are|was|were)\s+from|grew\s+up\s+in|comes\s+from|was\s+born\s+in`, 'from', 'place'),
  p(String.raw`(?:(?:is|am|was|got)\s+)?married\s+to|married|wed`, 'married_to', 'person'),
  p(String.raw`runs\s+on|ran\s+on|(?:is|are|was)\s+running\s+on|(?:is|are|was)\s+hosted\s+on|(?:is|are)\s+migrating\s+(?:from\s+\S+\s+)?to|migrated\s+(?:from\s+\S+\s+)?to`, 'runs_on', 'thing', false, 'thing'),
  p(String.raw`(?:is|am|was|are)\s+(?:dating|engaged\s+to)`, 'dating', 'person'),
  p(String.raw`(?:is|am|are|was|were)\s+friends\s+with|befriended`, 'friend_of', 'person'),
  p(String.raw`likes?|loves?|enjoys?|liked|loved|enjoyed|(?:am|is|are)\s+(?:a\s+)?(?:big\s+)?fans?\s+of|(?:am|is|are)\s+into|adores?`, 'likes', 'thing'),
  p(String.raw`prefers?|preferred`, 'prefers', 'thing'),
  p(String.raw`(?:hates?|dislikes?|hated|disliked|can't\s+stand)`, 'dislikes', 'thing'),
  p(String.raw`owns?\s+(?:(?:a|an)\s+(?:third|quarter|half|share|stake|majority\s+stake|minority\s+stake)|half|[\w.]+\s*(?:%|percent|per\s+cent))\s+(?:of|in)|owns?|owned|bought|adopted|(?:has|have)\s+(?:a|an|two|three)\s+(?=\w)`, 'owns', 'thing'),
  p(String.raw`(?:is|are|was|were)\s+owned\s+by`, 'owns', 'person', true, 'thing'),
  p(String.raw`uses|use|used|(?:is|am|are)\s+using|switched\s+to|(?:switched|migrated)\s+${FROM_TO}|(?:moved|changed|switched|migrated)\s+(?:(?:our|the|my|their|its|all)\s+)?(?:[a-z][\w-]*\s+){1,2}?${FROM_TO}`, 'uses', 'thing'),
  p(String.raw`depends?\s+on|relies\s+on|rely\s+on|requires?`, 'depends_on', 'thing', false, 'thing'),
  p(String.raw`caused|causes|led\s+to|resulted\s+in|triggered|broke`, 'caused', 'thing', false, 'thing'),
  p(String.raw`(?:was|were|is)\s+caused\s+by|(?:was|were)\s+triggered\s+by`, 'caused', 'thing', true, 'thing'),
  p(String.raw`(?:study|studies|studied|(?:is|am|are)\s+studying|majored\s+in)`, 'studies', 'thing'),
  p(String.raw`(?:play|plays|played)`, 'plays', 'thing'),
  p(String.raw`(?:visited|traveled\s+to|travelled\s+to|went\s+to)`, 'visited', 'place'),
  p(String.raw`(?:is|am|was)\s+(?:a|an)\s+member\s+of|belongs\s+to`, 'member_of', 'organization'),
];

/** "Globex is on Salesforce": a named platform something is on (uses). Not a possessive ("on Alice's team"). */
export const IS_ON = new RegExp(String.raw`${START}${SUBJECT}${GROUP_NOUN}\s+(?:is|are|was|were)\s+(?:now\s+|still\s+|already\s+)?on\s+(${NAME})(?![\p{L}'’])`, 'gu');
