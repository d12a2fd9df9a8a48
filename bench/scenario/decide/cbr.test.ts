/**
 * The case-based decision on the real embedding model, with precedents from a domain the shared scenario
 * does not use (storage, certificates, feature flags, quotas).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedEmbedder } from '../../../testing/memory-fixture.js';
import { decide } from './cbr.js';
import type { Precedent } from './precedents.js';
import type { EmbedFn } from './similarity.js';

let embed: EmbedFn;
beforeAll(async () => {
  const e = sharedEmbedder();
  await e.init();
  embed = (t) => e.embed(t);
});

function precedent(id: string, situation: string, cause: string, extra: Partial<Precedent> = {}): Precedent {
  return { id, label: `episode ${id}`, source: 'episode', situation, cause, mistaken: [], outcome: 'FAILURE', corrected: false, confidence: 1, support: 1, ...extra };
}

const diskCases = [
  precedent('d1', 'Image uploads failing with write errors on the uploader hosts.', 'Scratch volume full of stale temp files', { corrected: true, mistaken: ['a stuck worker process'] }),
  precedent('d2', 'Uploads to the media store failing with write errors for every new file.', 'Media volume full: old renditions never deleted'),
  precedent('c1', 'Partner integrations rejecting calls with handshake failures.', 'Expired client certificate on the partner gateway', { outcome: 'SUCCESS' }),
];

describe('decide: no memory, or none that fits', () => {
  it('with no precedent, a cue in the report picks its prior, and the reason says so', async () => {
    const d = await decide('Checkout requests time out at peak traffic', [], embed);
    expect(d.basis).toMatchObject({ kind: 'prior', priorId: 'load' });
    expect(d.text).toMatch(/^Investigate: resource exhaustion under load/);
    expect(d.reason).toContain('prior "load"');
  });

  it('with no precedent and no cue, the general prior decides', async () => {
    const d = await decide('The invoice PDF shows the wrong currency symbol', [], embed);
    expect(d.basis).toMatchObject({ kind: 'prior', priorId: 'general' });
  });

  it('a circumstance the report states and no precedent shares sends it to that prior, not to memory', async () => {
    const d = await decide('Image uploads failing with write errors right after the 3.0 release', diskCases, embed);
    expect(d.basis).toMatchObject({ kind: 'prior', priorId: 'recent-change' });
    expect(d.reason).toContain('no precedent shares');
  });

  it('a weakly similar precedent does not decide', async () => {
    const unrelated = [precedent('x1', 'Kernel panic on a storage node during a firmware flash.', 'Firmware bug in the RAID controller')];
    const d = await decide('The invoice PDF shows the wrong currency symbol', unrelated, embed);
    expect(d.basis.kind).toBe('prior');
    expect(d.reason).toContain('no precedent fits well enough');
  });
});

describe('decide: case-based reasoning', () => {
  it('names the cause of the best-fitting precedent, with the agreeing cases', async () => {
    const d = await decide('Uploads of new images failing with write errors', diskCases, embed);
    expect(d.basis.kind).toBe('precedent');
    expect(d.text).toMatch(/^Investigate: (Scratch|Media) volume full/);
    expect(d.reason).toMatch(/^precedent episode d[12]/);
    expect(d.basis).toMatchObject({ agreeing: 2 });
    // The two disk cases vote together; the certificate case is a different cause.
    const disk = d.votes.find((v) => v.cause.startsWith('Scratch'))!;
    const cert = d.votes.find((v) => v.cause.startsWith('Expired'))!;
    expect(disk.agreeing).toEqual(expect.arrayContaining(['d1', 'd2']));
    expect(disk.net).toBeGreaterThan(cert.net);
  });

  it('a corrected, otherwise equal precedent outweighs an uncorrected one', async () => {
    const a = precedent('a', 'Nightly export job crashing halfway.', 'Export volume out of inodes', { corrected: true });
    const b = precedent('b', 'Nightly export job crashing halfway.', 'Worker killed for exceeding its memory limit');
    const d = await decide('Nightly export job crashing halfway', [b, a], embed);
    expect(d.basis).toMatchObject({ kind: 'precedent', precedentId: 'a' });
  });

  it('a fact with higher confidence and more support outweighs a single case', async () => {
    const fact: Precedent = {
      ...precedent('f', 'a report mentions export and crashing', 'the export volume filling up'),
      source: 'fact',
      outcome: null,
      confidence: 0.9,
      support: 6,
    };
    const single = precedent('s', 'Export job crashing on large tenants.', 'A malformed row in one tenant');
    const d = await decide('Export job crashing for large tenants', [single, fact], embed);
    expect(d.basis).toMatchObject({ kind: 'precedent', precedentId: 'f' });
  });

  it('a circumstance the report denies rules out precedents that state it', async () => {
    const precedents = [
      precedent('p1', 'Search API timing out during the evening traffic peak.', 'Worker threads all busy at peak', { corrected: true }),
      precedent('p2', 'Search API slow under heavy load from crawlers.', 'Worker threads all busy under crawler load'),
      precedent('p3', 'Search API errors right after the 7.1 deploy.', 'A bad ranking flag shipped in the 7.1 deploy', { outcome: 'SUCCESS' }),
    ];
    const d = await decide('Search API errors right after the 7.2 deploy, not during a traffic peak', precedents, embed);
    expect(d.basis).toMatchObject({ kind: 'precedent', precedentId: 'p3' });
    const scored = Object.fromEntries(d.precedents.map((s) => [s.precedent.id, s]));
    expect(scored.p1!.fit.conflicting).toEqual(['load']);
    expect(scored.p3!.fit.factor).toBe(1);
  });

  it('adds the checks of a stated circumstance that the winning cause does not speak to', async () => {
    const other = precedent('t1', 'Storefront errors right after the 3.2 rollout.', 'A broken template in the storefront theme', { outcome: 'SUCCESS' });
    const d = await decide('Billing errors right after the 5.0 rollout', [other], embed);
    expect(d.basis).toMatchObject({ kind: 'precedent', precedentId: 't1' });
    expect(d.text).toMatch(/^Investigate: A broken template in the storefront theme \(recent-change: the recent change — /);
    expect(d.reason).toContain('prior "recent-change" adds its checks');
    // A cause that names the circumstance itself stands alone.
    const own = precedent('t2', 'Storefront errors right after the 3.2 rollout.', 'A broken template shipped in the 3.2 rollout', { outcome: 'SUCCESS' });
    expect((await decide('Billing errors right after the 5.0 rollout', [own], embed)).text).toBe('Investigate: A broken template shipped in the 3.2 rollout');
  });

  it('a correction takes votes from the belief it overruled, and from causes like it', async () => {
    const precedents = [
      precedent('q1', 'Geocoding lookups failing for many users.', 'Maps API quota exhausted for the day'),
      precedent('q2', 'Geocoding lookups returning empty results.', 'Maps API quota exceeded, calls throttled'),
      precedent('fl', 'Geocoding lookups failing for every user right after the flag flip.', 'The new provider flag sends malformed coordinates', {
        corrected: true,
        mistaken: ['the maps API quota'],
      }),
    ];
    const d = await decide('Geocoding lookups failing for every user right after the flag flip', precedents, embed);
    expect(d.basis).toMatchObject({ kind: 'precedent', precedentId: 'fl' });
    const quota = d.votes.find((v) => v.cause.startsWith('Maps API quota exhausted'))!;
    expect(quota.against).toBeGreaterThan(0);
    expect(d.votes.find((v) => v.precedentId === 'fl')!.against).toBe(0);
  });

  it('is deterministic: the same memory and report give the same decision', async () => {
    const a = await decide('Uploads of new images failing with write errors', diskCases, embed);
    const b = await decide('Uploads of new images failing with write errors', [...diskCases].reverse(), embed);
    expect(b.text).toBe(a.text);
  });
});

/** Every distinct text its own axis: all cosines 0, so no situation is similar and likeness is by words alone. */
function orthogonalEmbed(): EmbedFn {
  const axes = new Map<string, number>();
  return (texts) =>
    Promise.resolve(
      texts.map((t) => {
        if (!axes.has(t)) axes.set(t, axes.size);
        const v = new Float32Array(256);
        v[axes.get(t)! % 256] = 1;
        return v;
      }),
    );
}

describe('decide: recurrence when no situation is similar', () => {
  const report = 'Settlement file missing at the clearing house';
  const full1 = precedent('r1', 'Photo thumbnails missing for new uploads.', 'Scratch volume full of stale temp files', { corrected: true, mistaken: ['a stuck worker'] });
  const full2 = precedent('r2', 'Audit trail has gaps since Tuesday.', 'Audit volume full of stale temp files');
  const cert = precedent('r3', 'Partner portal refusing logins.', 'A revoked signing key on the portal', { outcome: 'SUCCESS' });

  it('names a cause that recurred in two fitting cases, and says it decided by recurrence', async () => {
    const d = await decide(report, [cert, full1, full2], orthogonalEmbed());
    expect(d.basis).toMatchObject({ kind: 'precedent', via: 'recurrence', precedentId: 'r1' });
    expect(d.text).toBe('Investigate: Scratch volume full of stale temp files');
    expect(d.reason).toMatch(/^precedent episode r1 by recurrence: no precedent fits well enough .*recurs in memory \(2 of 3 fitting cases/);
  });

  it('a single case is no recurrence: the prior decides', async () => {
    const d = await decide(report, [full1, cert], orthogonalEmbed());
    expect(d.basis).toMatchObject({ kind: 'prior', priorId: 'general' });
    expect(d.reason).toContain('no cause recurs in memory');
  });

  it('a statement without an outcome (a correction line alone) does not count as a second case', async () => {
    const line: Precedent = { ...full2, id: 'r2-line', outcome: null, source: 'chunk' };
    const d = await decide(report, [full1, line], orthogonalEmbed());
    expect(d.basis.kind).toBe('prior');
  });

  it('a recurring cause needs the majority of the fitting weight', async () => {
    const others = ['Revoked signing key', 'Stale DNS entry for the ledger', 'Clock drift on the batch host'].map((cause, i) =>
      precedent(`o${i}`, `Unrelated outage number ${i}.`, `${cause} on host ${i}`, { corrected: true }),
    );
    const d = await decide(report, [full1, full2, ...others], orthogonalEmbed());
    expect(d.basis.kind).toBe('prior');
  });

  it('cases that lack a circumstance the report states are not counted', async () => {
    const d = await decide('Settlement file missing at the clearing house during the month-end traffic peak', [full1, full2], orthogonalEmbed());
    expect(d.basis).toMatchObject({ kind: 'prior', priorId: 'load' });
  });

  it('two phrasings that lead with the same thing recur as one cause', async () => {
    const skew = precedent('k1', 'Sessions dropped seconds after sign-in.', 'Clock skew between ledger hosts: the time daemon had stopped', { corrected: true });
    const drift = precedent('k2', 'Signed links refused as premature.', 'Clock drift on the proxy host: time sync switched off', { corrected: true });
    const d = await decide(report, [cert, skew, drift], orthogonalEmbed());
    expect(d.basis).toMatchObject({ kind: 'precedent', via: 'recurrence' });
    expect(d.text).toMatch(/^Investigate: Clock (skew|drift)/);
  });

  it('a similar precedent still decides by similarity, not by recurrence', async () => {
    const d = await decide('Uploads of new images failing with write errors', diskCases, embed);
    expect(d.basis).toMatchObject({ kind: 'precedent', via: 'similarity' });
  });
});
