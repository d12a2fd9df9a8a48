/**
 * Structure of a situation, read from a report: does it say the trouble followed a change? "Since we switched
 * the invoicing to …", "right after the 7.0 rollout", "after the agent edited the config". Whether something
 * changed is the first thing that separates look-alike incidents (the same symptom from load, from a defect
 * that was always there, or from yesterday's change), whatever the domain — so it is read with generic English
 * only: a temporal clause ("since / after / following …") that holds a verb of changing or the word "new".
 * A denied change does not count: "with no code change", "nothing changed since Friday", "no commits since
 * yesterday".
 */

/** Clause breaks: sentence ends (not the dots inside "7.0"), semicolons, line breaks, dashes used as breaks. */
const CLAUSE_BREAK = /[.!?]+(?=\s|$)|[;\n]|\s[—–]\s/;
const TEMPORAL = /\b(?:since|after|following|once|when)\b/i;
const CHANGE_VERB =
  /\b(?:deploy\w*|releas\w*|roll(?:ed|ing|s)?[ -]?out\w*|upgrad\w*|updat\w*|migrat\w*|switch\w*|chang\w*|edit\w*|bump\w*|moved|refactor\w*|commit\w*|introduc\w*|enabl\w*|install\w*|patch\w*|rotat\w*|launch\w*|replac\w*|new)\b/i;
const PASSIVE_CHANGE = /\b(?:was|were|got|been|being)\s+(?:\w+\s+)?(?:deployed|released|upgraded|updated|migrated|switched|changed|edited|bumped|moved|introduced|enabled|installed|patched|rotated|replaced)\b/i;
const DENIED = /\b(?:no|not|nothing|without|never|none)\b[^,]*$/i;

function clauseStatesChange(clause: string): boolean {
  const t = TEMPORAL.exec(clause);
  const verb = CHANGE_VERB.exec(clause);
  const passive = PASSIVE_CHANGE.exec(clause);
  const at = verb && t && verb.index > t.index ? verb.index : passive ? passive.index : -1;
  if (at < 0) return false;
  // "no code change", "nothing changed", "without a release": the change is denied.
  return !DENIED.test(clause.slice(0, at));
}

/** The text says its trouble followed a change. */
export function statesChange(text: string): boolean {
  return text.split(CLAUSE_BREAK).some(clauseStatesChange);
}
