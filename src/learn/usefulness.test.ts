import { describe, expect, it } from 'vitest';
import { assessUsefulness, ruleParts } from './usefulness.js';

const two = ['eps_1', 'eps_2'];

describe('assessUsefulness', () => {
  it('rejects the vague fact from the prototype, for structure and specificity', () => {
    const v = assessUsefulness({ text: 'Initial symptom-based diagnosis often leads to misidentifying the root cause', supportingEpisodeIds: two });
    expect(v.useful).toBe(false);
    expect(v.checks.structure).toBe(false);
    expect(v.checks.specific).toBe(false);
    expect(v.specificTerms).toEqual([]);
    expect(v.reasons.some((r) => r.startsWith('specific: 0 specific term'))).toBe(true);
  });

  it.each([
    'When services fail immediately after a deployment with no traffic change, investigate configuration errors before connection pool problems.',
    'Deployment-related failures with immediate onset are more likely configuration errors than capacity limits.',
    'Check the HTTP client connection cap when checkout 503s appear at peak traffic.',
    'Queue consumer lag during broker upgrades is caused by partition rebalancing loops.',
  ])('accepts a specific, actionable heuristic: %s', (text) => {
    const v = assessUsefulness({ text, supportingEpisodeIds: two });
    expect(v.reasons).toEqual([]);
    expect(v.useful).toBe(true);
  });

  it('rejects a specific observation with no condition → action or cause', () => {
    const v = assessUsefulness({ text: 'The orders table on the primary database has eleven million rows today.', supportingEpisodeIds: two });
    expect(v.useful).toBe(false);
    expect(v.reasons).toEqual(['structure: names no condition → action or cause pattern']);
  });

  it('rejects a heavily hedged statement', () => {
    const v = assessUsefulness({ text: 'When caches may sometimes often fail, it could possibly be certain replicas.', supportingEpisodeIds: two });
    expect(v.checks.hedged).toBe(false);
    expect(v.useful).toBe(false);
  });

  it('needs the configured number of distinct supporting episodes', () => {
    const text = 'When checkout 503s appear at peak traffic, check the HTTP client connection cap.';
    expect(assessUsefulness({ text, supportingEpisodeIds: ['eps_1', 'eps_1'] }).reasons).toEqual(['support: 1 supporting episode(s) (need ≥ 2)']);
    expect(assessUsefulness({ text, supportingEpisodeIds: ['eps_1'] }, { minSupport: 1 }).useful).toBe(true);
  });

  it('bounds the length', () => {
    const long = `When ${Array.from({ length: 50 }, (_, i) => `signal${i}`).join(' ')} appear, check the replica lag.`;
    expect(assessUsefulness({ text: long, supportingEpisodeIds: two }).checks.length).toBe(false);
    expect(assessUsefulness({ text: 'If disk fills, rotate logs.', supportingEpisodeIds: two }).checks.length).toBe(false);
  });

  it('rejects a restatement of one episode and accepts a generalisation over several', () => {
    const evidence = [
      'Checkout API returning 503s at the traffic peak; root cause: HTTP client connection cap.',
      'Search gateway stalls at peak traffic; root cause: search HTTP client ran out of connections.',
    ];
    const copy = assessUsefulness({ text: 'When the checkout API returns 503s at the traffic peak, check the HTTP client connection cap.', supportingEpisodeIds: two, evidenceTexts: evidence });
    expect(copy.checks.restatement).toBe(false);
    const general = assessUsefulness({ text: 'When requests stall at peak traffic, check the HTTP client connections.', supportingEpisodeIds: two, evidenceTexts: evidence });
    expect(general.reasons).toEqual([]);
  });

  it('rejects terms the evidence never mentions (ungrounded)', () => {
    const v = assessUsefulness({
      text: 'When kafka partitions rebalance during upgrades, suspect zookeeper session expiry.',
      supportingEpisodeIds: two,
      evidenceTexts: ['Checkout 503s at peak traffic.', 'Search stalls at peak traffic.'],
    });
    expect(v.checks.grounded).toBe(false);
    expect(v.useful).toBe(false);
  });

  it('scores useful statements above vague ones', () => {
    const good = assessUsefulness({ text: 'When checkout 503s appear at peak traffic, check the HTTP client connection cap.', supportingEpisodeIds: two });
    const vague = assessUsefulness({ text: 'Problems can often have various causes that may need investigating.', supportingEpisodeIds: two });
    expect(good.score).toBeGreaterThan(vague.score);
    expect(vague.useful).toBe(false);
  });

  it('rejects a listed condition that rests on reporting verbs or words every report has', () => {
    const v = assessUsefulness({ text: 'When a report mentions queries and show, check connection pool exhaustion.', supportingEpisodeIds: two });
    expect(v.useful).toBe(false);
    expect(v.reasons).toEqual(['cue: its condition rests on non-diagnostic words (show)']);
    const errors = assessUsefulness({ text: 'When a report mentions errors and returning, check the export volume filling up.', supportingEpisodeIds: two });
    expect(errors.checks.cue).toBe(false);
    const fine = assessUsefulness({ text: 'When a report mentions batch and indexing, check connection pool exhaustion.', supportingEpisodeIds: two });
    expect(fine.reasons).toEqual([]);
  });

  it('a condition in prose needs one diagnostic word, not all', () => {
    const v = assessUsefulness({ text: 'When writes start failing during the nightly compaction, check the export volume headroom.', supportingEpisodeIds: two });
    expect(v.checks.cue).toBe(true);
  });

  it('rejects a rule whose action only repeats its condition, unless it contrasts it', () => {
    const circular = assessUsefulness({ text: 'When a report mentions scratch and volume, check the scratch volume.', supportingEpisodeIds: two }, { minSpecificTerms: 2 });
    expect(circular.reasons).toEqual(['circular: what it says to check only repeats its condition']);
    const contrast = assessUsefulness({ text: 'When a report mentions release, suspect the release, not the HTTP client connection cap.', supportingEpisodeIds: two });
    expect(contrast.reasons).toEqual([]);
  });

  it('rejects a rule that suspects what it rules out', () => {
    const v = assessUsefulness({ text: 'When a report mentions startup and upgrade, suspect the disk, not the volume disk full.', supportingEpisodeIds: two });
    expect(v.checks.contradictory).toBe(false);
    expect(v.useful).toBe(false);
  });

  it('reads both rule shapes', () => {
    expect(ruleParts('When a report mentions deployment, started and traffic, suspect the deployment, not pool exhaustion (seen in 3 episodes).')).toEqual({
      condition: 'deployment, started and traffic',
      listed: true,
      cause: 'the deployment',
      ruledOut: 'pool exhaustion',
    });
    expect(ruleParts('Check the HTTP client connection cap when checkout 503s appear at peak traffic.')).toEqual({
      condition: 'checkout 503s appear at peak traffic',
      listed: false,
      cause: 'the HTTP client connection cap',
      ruledOut: undefined,
    });
    expect(ruleParts('The orders table has eleven million rows.')).toBeUndefined();
  });
});
