/**
 * Domain-general priors for diagnosing a failing service, used only when no remembered precedent fits.
 * The same table for every scenario; documented in docs/scenario-format.md ("Priors").
 *
 * Each prior is keyed by situation cues: generic operations vocabulary for *when* or *under what conditions*
 * a failure shows up (right after a change, under load, gradually, on a schedule, at a dependency). The
 * decision procedure also uses these cue classes to compare circumstances between a report and a precedent
 * ("the report says it began after a change; did any precedent?").
 *
 * Nothing here names a particular service, product or incident; a test guards that.
 */

export interface Prior {
  id: string;
  /** The situation the cues recognise, in words (shown in the decision's reason). */
  situation: string;
  /** Matched against lowercased text. */
  cues: RegExp;
  /** What to investigate when this prior decides. */
  advice: string;
}

export const PRIORS: readonly Prior[] = [
  {
    id: 'recent-change',
    situation: 'the failure began right after a change (deploy, release, rollout, upgrade, migration, config or schema change, new version)',
    cues: /\b(?:re)?deploy\w*|\breleas\w*|\brolled (?:out|back)\b|\broll(?:ing)?[- ]?(?:out|back)\w*|\bupgrad\w*|\bmigrat\w*|\bhotfix\w*|\bpatch(?:ed|es)?\b|\bconfig(?:uration)? (?:change|update|push)\w*|\bschema change\w*|\bfeature flag\w*|\bnew (?:version|build)\b|\bv\d+(?:\.\d+)+\b/,
    advice: 'the recent change — diff the deployment and its config, check its migrations and schema changes, and roll back if the timing lines up',
  },
  {
    id: 'load',
    situation: 'errors or latency only under load (peak hours, traffic bursts, batch jobs, high request rates)',
    cues: /\bload\b(?! balanc)|\bpeak\w*|\btraffic\b|\bqps\b|\brps\b|\bburst\w*|\bsurge\w*|\bspikes?\b|\bconcurren\w*|\bbatch\w*|\brush hour\b|\bhigh (?:volume|demand)\b|\brequest (?:rate|volume)\b|\bquery volume\b/,
    advice: 'resource exhaustion under load — connection pools, thread pools, memory and rate limits or queue capacity',
  },
  {
    id: 'gradual-growth',
    situation: 'the service degrades gradually, over hours or days, or after long uptime',
    cues: /\bgradual\w*|\bslowly\b|\bover (?:time|hours|days|weeks)\b|\bcreep\w*|\bgrow(?:s|ing|th)\b|\buptime\b|\bsince (?:the )?(?:last )?restart\b|\bleak\w*|\bsteadily\b|\bkeeps? (?:rising|climbing|increasing)\b/,
    advice: 'unbounded growth — a memory or handle leak, a filling disk, an unbounded queue or cache; compare resource use since the last restart',
  },
  {
    id: 'schedule',
    situation: 'the failure recurs at a fixed time or alongside a periodic job',
    cues: /\bevery (?:night|day|hour|morning|evening|week|monday|sunday)\b|\bnightly\b|\bhourly\b|\bdaily\b|\bmidnight\b|\bcron\w*|\bscheduled\b|\bbackup\w*|\bend of (?:the )?(?:day|month|quarter)\b|\bat \d{1,2}(?::\d\d)?\s?(?:am|pm)\b/,
    advice: 'a scheduled job (backup, report, cron task) contending for shared resources — correlate the failures with the job schedule',
  },
  {
    id: 'dependency',
    situation: 'the failure sits at a call to another system (upstream, third party, DNS, certificates, credentials)',
    cues: /\bupstream\b|\bthird[- ]party\b|\bexternal (?:service|provider|endpoint)\b|\bvendor\b|\bdns\b|\bcertificat\w*|\btls\b|\bssl\b|\bexpir\w*|\bcredential\w*|\bhandshake\w*/,
    advice: 'a failing dependency or an expired credential or certificate — check the dependency health, name resolution and expiry dates',
  },
];

/** When the report matches no cue at all and memory has nothing that fits. */
export const GENERAL_PRIOR: Prior = {
  id: 'general',
  situation: 'no situation cue and no fitting precedent',
  cues: /(?!)/,
  advice: 'general service health — recent changes, dependency health and resource saturation of the component in the report',
};

export function priorById(id: string): Prior {
  return PRIORS.find((p) => p.id === id) ?? GENERAL_PRIOR;
}

/** Ids of the priors whose cues occur in `text` (case-insensitive), in the sequence of the list. */
export function cueClasses(text: string): string[] {
  const t = text.toLowerCase();
  return PRIORS.filter((p) => p.cues.test(t)).map((p) => p.id);
}
