import { describe, expect, it } from 'vitest';
import { causeDatesChange, changedThing, deniesChange, followsUnreadEvent, namesChange, statesChange } from './change-cue.js';

describe('statesChange', () => {
  it.each([
    'Customers were invoiced twice right after we switched invoicing to the new tax engine yesterday.',
    'Failed logins from Android doubled right after the 7.0 rollout.',
    'After the agent edited the config, the docs build stops with a parse error.',
    'Since the CI runner image was upgraded this morning, date tests fail on every run.',
    'The travel request was returned since the new travel policy started this month.',
    'Errors began once the feature flag was enabled.',
    // A word of the symptom that is also a verb of changing ("launch") comes before the temporal clause.
    "Play Console shows a wave of force-closes at launch among long-time users after Tuesday's rollout.",
  ])('reads a change in %j', (text) => expect(statesChange(text)).toBe(true));

  it.each([
    'The build broke overnight with no code change.',
    'Nothing was deployed since Friday, yet checkout fails.',
    'Gift card holders say their cards show double the amount they loaded.',
    'Sellers report that one payout arrived twice since Tuesday.',
    'Dozens of tickets: customers cannot log into the portal.',
  ])('reads no change in %j', (text) => expect(statesChange(text)).toBe(false));
});

describe('changedThing', () => {
  it.each([
    ['After the agent edited the config, the docs build stops with a parse error.', ['agent', 'config']],
    ["Build fails right after the agent's commit: unexpected token.", ['agent']],
    ['Donors got two receipts for every gift since this morning, when the receipt provider was upgraded.', ['receipt', 'provider']],
    ['Admins hit an error right after sign-in since the release that bumped our OAuth library.', ['oauth', 'library']],
    ['Since the CI runner image was upgraded this morning, date tests fail on every run.', ['ci', 'runner', 'imag']],
  ])('names what changed in %j, without the verb, "new" or words of time', (text, words) => expect([...changedThing(text)].sort()).toEqual([...words].sort()));

  it('is empty when no change is stated, or it is denied', () => {
    expect(changedThing('Gift card holders say their cards show double the amount they loaded.').size).toBe(0);
    expect(changedThing('The build broke overnight with no code change.').size).toBe(0);
  });
});

describe('namesChange', () => {
  it.each([
    "A WHERE clause added in yesterday's dashboard edit filters one region.",
    "Monday's logging change pointed the audit trail at a missing bucket.",
    'The widget kept the old keys after the scheduled key rotation.',
  ])('a finding or cause names a change in %j', (text) => expect(namesChange(text)).toBe(true));

  it.each(['All partitions are complete and on time.', "Yesterday's numbers are half of normal.", 'The lockfile has not changed in a week.'])(
    'names none in %j',
    (text) => expect(namesChange(text)).toBe(false),
  );
});

describe('followsUnreadEvent', () => {
  it.each([
    "The ranker run diverges within the first 500 steps since Monday's config refresh.",
    "Checkout totals are off following last week's cutover.",
    'Float16 overflow under automatic mixed precision after the gradient scaler was dropped.',
    'A breaking minor version picked up when the lockfile was regenerated.',
  ])('reads an event the trouble followed in %j', (text) => expect(followsUnreadEvent(text)).toBe(true));

  it.each([
    'Order confirmation emails have been landing in spam folders since Thursday.',
    'The deliverability dashboard went red at once after a weekend.',
    'The top-up was applied twice after it was delivered again.',
    'Every checkpoint after epoch 4 is garbage.',
    "Nothing happened since Monday's maintenance window was cancelled.",
  ])('reads none in %j (a time, a pronoun subject, or a denial)', (text) => expect(followsUnreadEvent(text)).toBe(false));
});

describe('deniesChange', () => {
  it('reads a named and denied change', () => {
    expect(deniesChange('The build broke overnight with no code change: "TypeError".')).toBe(true);
    expect(deniesChange('Nothing was deployed since Friday, yet checkout fails.')).toBe(true);
  });
  it('reads none in a stated change or a report without one', () => {
    expect(deniesChange('Errors began once the feature flag was enabled.')).toBe(false);
    expect(deniesChange('Dozens of tickets: customers cannot log into the portal.')).toBe(false);
  });
});

describe('causeDatesChange', () => {
  it.each([
    'The overnight re-slotting moved stock to new bins while the handheld app kept its cached old locations.',
    'The platform team rotated the signing keys yesterday and the cache kept the old set.',
    'A release rolled out on Saturday changed the default timeout.',
  ])('a cause names a change made at a time in %j', (text) => expect(causeDatesChange(text)).toBe(true));

  it.each([
    'A bug in the new app release encoding passwords twice.',
    'Cache connection pool saturated under peak load overnight.',
    'Nothing was changed yesterday; the disk filled up.',
  ])('names none in %j (no time, no verb of changing in the past, or a denial)', (text) => expect(causeDatesChange(text)).toBe(false));
});
