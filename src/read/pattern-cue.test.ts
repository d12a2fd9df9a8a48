import { describe, expect, it } from 'vitest';
import { statesPattern } from './pattern-cue.js';

describe('statesPattern', () => {
  it.each([
    'CI red on main: the checkout test fails about one run in five with a constraint violation.',
    'The export test goes red now and then; rerunning turns it green.',
    'Intermittent 502s from the image proxy.',
    'Sign-in works sometimes and sometimes loops back to the login page.',
    'The job is not always slow.',
    'The agent reports: test_invoice_totals fails randomly in the pipeline, green locally.',
    'Random timeouts from the payment gateway since noon.',
    'Uploads fail at random.',
  ])('reads an intermittent symptom in %j', (text) => expect(statesPattern(text)).toBe('intermittent'));

  it.each([
    'After the last commit, the refund test fails on every run.',
    'Cron expression tests fail deterministically since the new image.',
    'The endpoint always returns 500 for EU customers.',
  ])('reads a consistent symptom in %j', (text) => expect(statesPattern(text)).toBe('consistent'));

  it.each([
    'Revenue in the orders mart is double for Sunday.',
    'Backups run every night at two.',
    'Every user in the region sees the banner.',
    'It fails on every run, though rerunning sometimes passes.',
    'The signup test generates a random password and the login step rejects it.',
    'The service binds a random port and the health check cannot reach it.',
    'Sampling picks a random subset of rows for the quality report.',
  ])('reads no pattern in %j (none, a schedule, a scope, both, or a random value)', (text) => expect(statesPattern(text)).toBeUndefined());
});
