/**
 * Structure of a situation, read from a report: does it say the trouble followed a change? "Since we switched
 * the invoicing to …", "right after the 7.0 rollout", "after the agent edited the config". Whether something
 * changed is the first thing that separates look-alike incidents (the same symptom from load, from a defect
 * that was always there, or from yesterday's change), whatever the domain — so it is read with generic English
 * only: a temporal clause ("since / after / following …") that holds a verb of changing or the word "new".
 * A denied change does not count: "with no code change", "nothing changed since Friday", "no commits since
 * yesterday".
 */
import { specificStems } from '../learn/text.js';

/** Clause breaks: sentence ends (not the dots inside "7.0"), semicolons, line breaks, dashes used as breaks. */
const CLAUSE_BREAK = /[.!?]+(?=\s|$)|[;\n]|\s[—–]\s/;
const TEMPORAL = /\b(?:since|after|following|once|when)\b/i;
const CHANGE_VERB =
  /\b(?:deploy\w*|releas\w*|roll(?:ed|ing|s)?[ -]?out\w*|upgrad\w*|updat\w*|migrat\w*|switch\w*|chang\w*|edit\w*|bump\w*|moved|refactor\w*|commit\w*|introduc\w*|enabl\w*|install\w*|patch\w*|rotat\w*|launch\w*|replac\w*|new)\b/i;
/** Every match in a text (`matchAll` works on a copy, so the shared instances keep no state between calls). */
const TEMPORAL_ALL = new RegExp(TEMPORAL.source, 'gi');
const CHANGE_VERB_ALL = new RegExp(CHANGE_VERB.source, 'gi');
const PASSIVE_CHANGE = /\b(?:was|were|got|been|being)\s+(?:\w+\s+)?(?:deployed|released|upgraded|updated|migrated|switched|changed|edited|bumped|moved|introduced|enabled|installed|patched|rotated|replaced)\b/i;
const DENIED = /\b(?:no|not|nothing|without|never|none)\b[^,]*$/i;

/** The first verb of changing after the clause's first "since / after / when …" ("… at launch after Tuesday's rollout": rollout). */
function changeVerbAfterTemporal(clause: string): number {
  const t = TEMPORAL.exec(clause);
  if (!t) return -1;
  const from = t.index + t[0].length;
  const verb = CHANGE_VERB.exec(clause.slice(from));
  return verb ? from + verb.index : -1;
}

function clauseStatesChange(clause: string): boolean {
  const verb = changeVerbAfterTemporal(clause);
  const passive = PASSIVE_CHANGE.exec(clause);
  const at = verb >= 0 ? verb : passive ? passive.index : -1;
  if (at < 0) return false;
  // "no code change", "nothing changed", "without a release": the change is denied.
  return !DENIED.test(clause.slice(0, at));
}

/** A change is named and denied: "with no code change", "nothing was deployed since Friday". */
export function deniesChange(text: string): boolean {
  return text.split(CLAUSE_BREAK).some((clause) => {
    const verb = CHANGE_VERB.exec(clause) ?? PASSIVE_CHANGE.exec(clause);
    return verb !== null && DENIED.test(clause.slice(0, verb.index));
  });
}

/** The text says its trouble followed a change. */
export function statesChange(text: string): boolean {
  return text.split(CLAUSE_BREAK).some(clauseStatesChange);
}

/** Inside a clause: commas and colons set off the part that names the change ("After the agent edited the config, …"). */
const PART_BREAK = /[,:]\s/;
/** Words that say when, not what: they name no changed thing. */
const TIME_WORDS =
  /^(?:today|yesterday|tonight|tomorrow|morning|afternoon|evening|night|overnight|week|weekend|month|quarter|year|hour|minute|day|monday|tuesday|wednesday|thursday|friday|saturday|sunday|last|latest|earlier|recent|recently|ago|later)$/i;

/**
 * What changed: the words of the part of the text that states the change, from its "since / after / when …"
 * on (the whole part for a passive "the provider was upgraded"), without the verb of changing, "new", and words
 * of time — "after the agent edited the config" → agent, config; "since the base build container was switched to
 * the new toolchain image today" → base, build, container, toolchain, image. Empty when no change is stated.
 */
export function changedThing(text: string): Set<string> {
  const out = new Set<string>();
  for (const clause of text.split(CLAUSE_BREAK)) {
    for (const part of clause.split(PART_BREAK)) {
      if (!clauseStatesChange(part)) continue;
      // From the last "since / after / when …" before the verb of changing: "after sign-in since the release that …".
      const after = changeVerbAfterTemporal(part);
      const verb = after >= 0 ? after : (CHANGE_VERB.exec(part)?.index ?? part.length);
      const starts = [...part.matchAll(TEMPORAL_ALL)].filter((m) => m.index < verb);
      const t = starts.at(-1);
      const named = t ? part.slice(t.index + t[0].length) : part;
      const words = named.split(/\s+/).map((w) => w.replace(/^\W+|\W+$/g, '').replace(/['’]s$/i, ''));
      for (const w of words.filter((w) => w && !CHANGE_VERB.test(w) && !TIME_WORDS.test(w))) for (const stem of specificStems(w)) out.add(stem);
    }
  }
  return out;
}

/** A change named as a thing of a day: "yesterday's dashboard edit", "Monday's logging change". */
const DATED_CHANGE =
  /\b(?:yesterday|today|tonight|(?:mon|tues|wednes|thurs|fri|satur|sun)day)['’]s\s+(?:[\w-]+\s+){0,2}(?:edit|change|release|deploy(?:ment)?|update|upgrade|migration|switch|rollout|commit|refactor|patch)\b/i;

/** A finding or a cause names a change: stated as in a report (statesChange), or as a dated change. */
export function namesChange(text: string): boolean {
  return statesChange(text) || DATED_CHANGE.test(text);
}

/** When something happened: a day, a part of one, a clock time, "overnight", "last week". */
const TIME_EXPRESSION =
  /\b(?:yesterday|today|tonight|overnight|(?:this|last|yesterday)\s+(?:morning|afternoon|evening|night|week|weekend|month)|on\s+(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|the weekend)|at\s+\d{1,2}:\d{2})\b/i;

/**
 * A cause that says a change was made at a time: a verb of changing in the past tense and a time expression in
 * one clause — "the overnight re-slotting moved stock to new bins", "the team rotated the keys yesterday". An
 * established cause is what the trouble followed; a finding may name a change beside the point.
 */
export function causeDatesChange(cause: string): boolean {
  return cause.split(CLAUSE_BREAK).some((clause) => {
    const time = TIME_EXPRESSION.exec(clause);
    if (!time) return false;
    const verb = [...clause.matchAll(CHANGE_VERB_ALL)].find((m) => /(?:ed|ut)$/i.test(m[0]));
    return verb !== undefined && !DENIED.test(clause.slice(0, verb.index));
  });
}

/**
 * The trouble is anchored to an event the verb list may not know. Two shapes, read by structure alone: a dated
 * event ("since Monday's config refresh", "following last week's cutover": something of a named time), and a
 * passive clause with a named subject ("after the gradient scaler was dropped", "when the lockfile was
 * regenerated": something was done to a thing). The trouble followed something that happened; whether it was a
 * change of the kind `statesChange` reads is not said. An episode whose situation says this is not one that
 * states no change (situation.ts).
 */
const DATED_EVENT =
  /\b(?:since|after|following)\s+(?:(?:last|this)\s+)?(?:yesterday|today|tonight|morning|afternoon|evening|night|weekend|week|month|(?:mon|tues|wednes|thurs|fri|satur|sun)day)['’]s\s+[\w-]+/i;
const DONE_TO_A_THING = /\b(?:since|after|following|once|when)\s+(?:the|a|an|our|their|its|his|her|your|my)\s+(?:[\w-]+\s+){0,3}(?:was|were|got|had been|has been|have been)\s+(?:\w+ly\s+)?\w+(?:ed|en)\b/i;

export function followsUnreadEvent(text: string): boolean {
  return text.split(CLAUSE_BREAK).some((clause) =>
    [DATED_EVENT, DONE_TO_A_THING].some((re) => {
      const m = re.exec(clause);
      return m !== null && !DENIED.test(clause.slice(0, m.index));
    }),
  );
}
