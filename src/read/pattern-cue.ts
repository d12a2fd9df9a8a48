/**
 * Structure of a symptom, read from a report: does the trouble come and go, or does it happen every time?
 * "fails about one run in five", "goes red now and then; rerunning turns it green", "intermittent timeouts"
 * against "fails on every run", "deterministically", "always returns 500". Whether a failure is intermittent
 * or consistent is, with what changed (change-cue.ts), the first thing that separates look-alike incidents
 * whatever the domain: a race, a shared resource or an overloaded dependency comes and goes; a defect or a
 * wrong setting fails every time. Read with generic English only; a text that says both, or neither, states no
 * pattern. "Random" counts only as a manner of failing ("fails randomly", "at random", "random timeouts"): a
 * random password, port or seed says nothing about how often the trouble shows.
 */

export type SymptomPattern = 'intermittent' | 'consistent';

const INTERMITTENT =
  /\b(?:intermittent\w*|sometimes|occasional\w*|now and then|from time to time|every so often|at random|randomly|random (?:failures?|errors?|timeouts?|crash\w*|drops?|disconnect\w*|hangs?|stalls?|outages?|glitch\w*|spikes?|blips?|5\d\d\w*)|sporadic\w*|flak(?:y|iness)|on and off|comes and goes|hit[- ]or[- ]miss|not always|(?:one|two|1|2) (?:\w+ )?(?:in|out of) (?:every )?(?:two|three|four|five|ten|\d+)|some (?:runs|builds|requests|calls|attempts|of the time))\b|\b(?:rerun\w*|re-run\w*|retr(?:y|ies|ying))\b[^.;]{0,40}\b(?:green|pass\w*|works?|succeed\w*|fine)\b/i;
const CONSISTENT =
  /\b(?:(?:on )?every (?:single )?(?:run|time|build|attempt|call|request|try)|each (?:run|time|build|attempt)|always|deterministic\w*|consistently|reproduc\w* (?:every|each) time|never (?:passes|works|succeeds))\b/i;

/** The pattern a report states, if exactly one. */
export function statesPattern(text: string): SymptomPattern | undefined {
  const i = INTERMITTENT.test(text);
  const c = CONSISTENT.test(text.replace(/\bnot always\b/gi, ''));
  return i === c ? undefined : i ? 'intermittent' : 'consistent';
}
