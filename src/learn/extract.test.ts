import { describe, expect, it } from 'vitest';
import { describeEpisode } from './describe-episode.js';
import { extractHeuristics, HeuristicExtractor, toExtractionEpisode, type ExtractionEpisode } from './extract.js';
import { incidentStream } from './fixtures.test-support.js';
import { tokens } from './text.js';

/** The fixture rounds as closed episodes eps_1 … eps_6, described by the heuristic describer. */
function fixtureEpisodes(): ExtractionEpisode[] {
  return incidentStream().perRound.map((events, i) => {
    const d = describeEpisode(events);
    return toExtractionEpisode({ id: `eps_${i + 1}`, outcome: d.outcome, rootCause: d.rootCause, assumptions: d.assumptions, corrections: d.corrections, summary: d.summary }, events);
  });
}

function ep(id: string, situation: string, rootCause: string | undefined, extra: Partial<ExtractionEpisode> = {}): ExtractionEpisode {
  return { id, outcome: 'SUCCESS', situation, rootCause, assumptions: [], corrections: [], ...extra };
}

/** Words the templates themselves add; everything else must come from the episodes. */
const TEMPLATE = new Set(['when', 'a', 'report', 'mentions', 'check', 'suspect', 'not', 'seen', 'in', 'episodes', 'corrected', 'from', 'and', 'the']);

describe('extractHeuristics on the incident fixture', () => {
  const episodes = fixtureEpisodes();
  const result = extractHeuristics(episodes);
  const pattern = result.accepted.find((c) => c.kind === 'pattern')!;
  const counter = result.accepted.find((c) => c.kind === 'counter_pattern')!;

  it('finds the shared cause across three episodes, with the correction noted', () => {
    expect(pattern.supportingEpisodeIds).toEqual(['eps_1', 'eps_2', 'eps_4']);
    expect(pattern.correctedEpisodeIds).toEqual(['eps_1']);
    expect(pattern.text).toMatch(/^When a report mentions .+, check .*HTTP client.*connections per host.* \(seen in 3 episodes; corrected from a memory leak in 1\)\.$/);
    expect(pattern.conditionTerms).toContain('peak');
    expect(pattern.causeTerms).toEqual(expect.arrayContaining(['http', 'client', 'connect', 'host']));
    expect(pattern.usefulness.useful).toBe(true);
  });

  it('derives the counter-pattern from the corrected look-alikes: suspect the release, not the connection cap', () => {
    expect(counter.supportingEpisodeIds).toEqual(['eps_3', 'eps_6']);
    expect(counter.correctedEpisodeIds).toEqual(['eps_3', 'eps_6']);
    expect(counter.text).toMatch(/^When a report mentions release, suspect the release, not HTTP client .*\(seen in 2 episodes; corrected in 2\)\.$/);
    expect(counter.contradictingEpisodeIds).toEqual([]);
  });

  it('builds every candidate only from the episodes’ own words', () => {
    const vocabulary = new Set(episodes.flatMap((e) => tokens([e.situation, ...(e.findings ?? []), e.rootCause ?? '', ...e.assumptions, ...e.corrections].join(' '))));
    for (const c of [...result.accepted, ...result.rejected]) {
      const foreign = tokens(c.text).filter((w) => !TEMPLATE.has(w) && !vocabulary.has(w) && !/^\d+$/.test(w));
      expect(foreign, c.text).toEqual([]);
    }
  });

  it('leaves single-cause episodes alone (the unrelated one yields nothing)', () => {
    const all = [...result.accepted, ...result.rejected];
    expect(all.some((c) => c.supportingEpisodeIds.includes('eps_5'))).toBe(false);
    expect(all).toHaveLength(2);
  });

  it('keys are stable across re-extraction and unaffected by an unrelated new episode', () => {
    const more = extractHeuristics([...episodes, ep('eps_9', 'Mobile push notifications arrive twice on Android.', 'Retry handler resent after a slow acknowledgement.')]);
    expect(more.accepted.map((c) => c.key).sort()).toEqual(result.accepted.map((c) => c.key).sort());
  });

  it('the asynchronous HeuristicExtractor returns the same result', async () => {
    expect(await new HeuristicExtractor().extract(episodes)).toEqual(result);
  });
});

describe('extractHeuristics on another domain (no domain words in the code)', () => {
  const etl = [
    ep('d1', 'Nightly ETL load aborted halfway with write errors on the staging volume.', 'Staging volume ran out of disk space from unrotated temp files.', {
      outcome: 'FAILURE',
      assumptions: ['a warehouse lock timeout'],
      corrections: ['It was actually the staging volume disk space, not a warehouse lock timeout.'],
    }),
    ep('d2', 'Hourly ETL load aborted with write errors on the staging volume.', 'Temp files filled the staging volume disk space.'),
    ep('d3', 'Report export aborted with write errors on the staging volume.', 'Staging volume disk space exhausted by temp files.'),
    ep('d4', 'Dashboard tiles show stale numbers since Monday.', 'Cache TTL was set to a week by mistake.'),
    // Looks like the pattern, but the cause was different: it must count against the pattern.
    ep('d5', 'ETL load aborted with write errors on the staging volume.', 'Credentials for the staging bucket had rotated.', { outcome: 'FAILURE' }),
  ];

  it('finds the disk-space pattern in its own vocabulary and counts the look-alike against it', () => {
    const { accepted } = extractHeuristics(etl);
    const p = accepted.find((c) => c.kind === 'pattern')!;
    expect(p.supportingEpisodeIds).toEqual(['d1', 'd2', 'd3']);
    expect(p.text).toMatch(/check .*disk space/);
    expect(p.text).toContain('corrected from a warehouse lock timeout in 1');
    expect(p.contradictingEpisodeIds).toEqual(['d5']);
  });

  it('rejects, with reasons, what the usefulness filter does not accept', () => {
    const { accepted, rejected } = extractHeuristics(etl, undefined, { minSupport: 4 });
    expect(accepted).toEqual([]);
    expect(rejected.find((c) => c.kind === 'pattern')!.usefulness.reasons).toContain('support: 3 supporting episode(s) (need ≥ 4)');
  });
});

describe('clustering signals', () => {
  it('clusters by cause vectors when the words differ', () => {
    const v = (x: number) => Float32Array.from([1, x, 0]);
    const eps = [
      ep('a', 'Uploads stall on the media tier during backups.', 'Backup job saturates the shared NIC.', { causeVector: v(0.05) }),
      ep('b', 'Uploads stall on the media tier at night.', 'Network card bandwidth exhausted by snapshot transfer.', { causeVector: v(0.1) }),
      ep('c', 'Login page shows a blank screen.', 'Bundle referenced a missing script.', { causeVector: Float32Array.from([0, 0, 1]) }),
    ];
    const withVectors = extractHeuristics(eps);
    expect(withVectors.accepted.concat(withVectors.rejected).map((c) => c.supportingEpisodeIds)).toEqual([['a', 'b']]);
    const withoutVectors = extractHeuristics(eps.map((e) => ({ ...e, causeVector: undefined })));
    expect(withoutVectors.accepted.concat(withoutVectors.rejected)).toEqual([]);
  });

  it('a shared compound ("disk quota") joins causes whose words otherwise differ', () => {
    const eps = [
      ep('a', 'Artifact uploads rejected on the build farm.', 'Build farm disk quota reached by cached layers.'),
      ep('b', 'Artifact uploads rejected again on the build farm.', 'Disk quota for the runner volume was too small for the monorepo.'),
    ];
    const all = extractHeuristics(eps);
    expect([...all.accepted, ...all.rejected].map((c) => c.supportingEpisodeIds)).toEqual([['a', 'b']]);
    // Without the shared compound the same two shared words are too little of the longer cause.
    const apart = extractHeuristics([eps[0]!, ep('b', eps[1]!.situation, 'Runner volume had no disk left; the quota policy was too small for the monorepo build.')]);
    expect([...apart.accepted, ...apart.rejected]).toEqual([]);
  });

  it('a cluster whose reports vary keeps its pattern as it grows', () => {
    const reports = [
      'Nightly ETL load aborted on the staging volume.',
      'Report export failed writing to staging.',
      'Thumbnail job stopped with write errors.',
      'Backfill aborted with write errors on staging.',
      'Search indexer crashed writing segments.',
    ];
    const eps = reports.map((r, i) => ep(`d${i}`, r, i % 2 ? 'Temp files filled the disk space on the volume.' : 'Volume disk space exhausted by temp files.'));
    for (let n = 2; n <= eps.length; n++) {
      const p = extractHeuristics(eps.slice(0, n)).accepted.find((c) => c.kind === 'pattern');
      expect(p?.supportingEpisodeIds, `with ${n} episodes`).toHaveLength(n);
    }
  });

  it('a counter-pattern gathers every other-cause report with the separating words, corrected or not', () => {
    const eps = [
      ep('p1', 'Queue consumers stall during the Black Friday traffic peak.', 'Broker connection limit reached under peak load.'),
      ep('p2', 'Queue consumers stall at the evening traffic peak.', 'Broker connection limit reached under peak load again.'),
      ep('x1', 'Queue consumers stall right after the schema migration.', 'Migration renamed a column the consumers read.', {
        outcome: 'FAILURE',
        assumptions: ['the broker connection limit'],
        corrections: ['Not the broker connection limit: the migration renamed a column.'],
      }),
      ep('x2', 'Checkout writes fail right after the schema migration.', 'Migration added a NOT NULL column without a default.'),
    ];
    const counter = extractHeuristics(eps).accepted.find((c) => c.kind === 'counter_pattern')!;
    expect(counter.supportingEpisodeIds).toEqual(['x1', 'x2']);
    expect(counter.correctedEpisodeIds).toEqual(['x1']);
    expect(counter.text).toMatch(/^When a report mentions (schema and migration|migration and schema), suspect the migration\b.*, not broker connection limit/);
  });

  it('a counter-pattern\'s words must tell the look-alikes\' cause from every other report, not only from the cluster\'s', () => {
    const eps = [
      ep('p1', 'The nightly training job dies with a nan loss.', 'Half-precision overflow without loss scaling.'),
      ep('p2', 'The speech model training job reports a nan loss.', 'Half-precision overflow without loss scaling again.'),
      ep('r1', 'The ranker run shows one loss spike, then recovers.', 'A corrupt data shard produced a one-off loss spike.'),
      ep('s1', 'The ranker run diverges since the config refresh.', 'The config refresh removed the learning-rate warmup.', {
        outcome: 'FAILURE',
        assumptions: ['half-precision overflow without loss scaling'],
        corrections: ['Not half-precision overflow: the refresh removed the learning-rate warmup.'],
      }),
      ep('s2', 'Since the sweep template changed, every trial blows up early.', 'The sweep template dropped the learning-rate warmup.'),
    ];
    const counter = extractHeuristics(eps).accepted.find((c) => c.kind === 'counter_pattern')!;
    // "run" and "ranker" are in the corrected report and in the unrelated spike's report as often: not a condition.
    expect(counter.conditionTerms).toEqual(['sinc']);
    expect(counter.supportingEpisodeIds).toEqual(['s1', 's2']);
    expect(counter.text).toMatch(/^When a report mentions since, suspect the learning rate warmup, not half precision overflow/);
  });

  it('ignores episodes without a root cause', () => {
    const eps = [ep('a', 'Disk alarms on the build agents.', undefined), ep('b', 'Disk alarms on the build agents again.', undefined)];
    expect(extractHeuristics(eps)).toEqual({ accepted: [], rejected: [] });
  });

  it('condition words are what the reports state and can tell apart: no denied words, no reporting verbs', () => {
    const eps = [
      ep('a', 'Thumbnail workers show write errors on the scratch volume; CPU looks normal.', 'Scratch volume disk space exhausted by temp files.'),
      ep('b', 'Export workers returning write errors on the scratch volume; CPU looks normal.', 'Temp files filled the scratch volume disk space.'),
      ep('c', 'Login page blank, CPU spiking.', 'A missing script bundle.'),
    ];
    const p = extractHeuristics(eps).accepted.find((c) => c.kind === 'pattern')!;
    expect(p.conditionTerms).toEqual(expect.arrayContaining(['scratch']));
    for (const vague of ['show', 'return', 'cpu', 'normal', 'error']) expect(p.conditionTerms).not.toContain(vague);
  });

  it('does not suspect a symptom: a counter-pattern needs a cause to name', () => {
    const eps = [
      ep('p1', 'Report jobs abort on large exports.', 'Export volume disk space exhausted by temp files.'),
      ep('p2', 'Resizer jobs abort for every new image.', 'Temp files filled the export volume disk space.'),
      // Look-alikes whose only shared report word is a symptom; their causes share nothing and never name it.
      ep('x1', 'Indexer crashing on startup after the 5.2 upgrade.', 'Incompatible segment format in 5.2.', { corrections: ['Not the export volume disk space: an incompatible format.'] }),
      ep('x2', 'Ledger crashing on every write after the 3.0 release.', 'A renamed column the writer still uses.', { corrections: ['Not the export volume disk space: a renamed column.'] }),
    ];
    const all = extractHeuristics(eps);
    const counters = [...all.accepted, ...all.rejected].filter((c) => c.kind === 'counter_pattern');
    expect(counters.map((c) => c.text).join('\n')).not.toMatch(/suspect the crash/i);
  });

  it('phrases the cause from the leading clause when it names most of the shared cause', () => {
    const eps = [
      ep('a', 'Ledger sessions dropped seconds after sign-in on the ledger tier.', 'Clock skew between ledger hosts: the time daemon had stopped on one.'),
      ep('b', 'Ledger signatures refused as premature on the ledger tier.', 'Clock skew between ledger hosts: time sync switched off after a reboot.'),
    ];
    const p = extractHeuristics(eps).accepted.find((c) => c.kind === 'pattern')!;
    expect(p.text).toMatch(/check clock skew between ledger hosts \(seen in 2 episodes\)\.$/);
  });
});
