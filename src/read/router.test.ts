import { describe, expect, it } from 'vitest';
import { kindBoost, routeQuery } from './router.js';

describe('routeQuery', () => {
  it.each([
    'What happened when we deployed payments last Tuesday?',
    'Last time the nightly build failed, what fixed it?',
    'When did we rotate the staging token?',
    'Did we ever see ERR_PG_53300 before?',
    'remind me what the user said about refunds',
    'How did the rollback go yesterday?',
  ])('routes "%s" to recall', (q) => {
    const plan = routeQuery(q);
    expect(plan.route).toBe('recall');
    expect(plan.cue).not.toBeNull();
  });

  it.each([
    'Deploy payments v2.14.3 to prod',
    'please roll back the inventory service',
    'Can you fix the flaky test in billing?',
    'Rotate the staging credentials',
    'how do I restart the search cluster?',
  ])('routes "%s" to execute', (q) => {
    expect(routeQuery(q).route).toBe('execute');
  });

  it.each(['What is our refund policy for annual plans?', 'connection pool sizing', 'Who owns the auth service?', ''])(
    'routes "%s" to general',
    (q) => {
      const plan = routeQuery(q);
      expect(plan.route).toBe('general');
      expect(plan.cue).toBeNull();
    },
  );

  it('recall cues win over a leading verb ("check what happened last time")', () => {
    expect(routeQuery('check what happened last time we migrated').route).toBe('recall');
  });

  it('does not mistake a verb inside a word or mid-sentence for an imperative', () => {
    expect(routeQuery('Settings for the deployment pipeline').route).toBe('general');
    expect(routeQuery('the team wants to deploy on Fridays').route).toBe('general');
  });

  it('boosts kinds per route and leaves general untouched', () => {
    const recall = routeQuery('what happened last time');
    expect(kindBoost(recall, 'episode')).toBeGreaterThan(1);
    expect(kindBoost(recall, 'event')).toBeGreaterThan(1);
    expect(kindBoost(recall, 'fact')).toBe(1);
    expect(recall.recencyFactor).toBeGreaterThan(1);
    const exec = routeQuery('deploy the api');
    expect(kindBoost(exec, 'procedure')).toBeGreaterThan(kindBoost(exec, 'event'));
    const general = routeQuery('refund policy');
    expect([kindBoost(general, 'event'), kindBoost(general, 'procedure'), general.recencyFactor]).toEqual([1, 1, 1]);
  });

  it('is deterministic and case/space insensitive', () => {
    expect(routeQuery('  WHAT   HAPPENED  when ')).toEqual(routeQuery('what happened when'));
  });
});
