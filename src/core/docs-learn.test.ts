import { describe, expect, it } from 'vitest';
import { makeEpisode, makeExample, makeProcedure } from '../testing/storage-factories-learn.js';
import { episodeDocText, episodeToDoc, exampleToDoc, procedureToDoc } from './docs-learn.js';
import { contentHash } from './text.js';

describe('learn record projections', () => {
  it('projects a closed episode: summary, root cause and corrections, typed by outcome, at its end time', () => {
    const e = makeEpisode({ summary: ' Deploy failed ', rootCause: 'expired token', corrections: ['renew first', ''], outcome: 'FAILURE', stateLabel: 'deploy' });
    const doc = episodeToDoc(e)!;
    expect(doc.text).toBe('Deploy failed\nexpired token\nrenew first');
    expect(doc).toMatchObject({ kind: 'episode', refId: e.id, type: 'FAILURE', stateLabel: 'deploy', ts: e.endTs, importance: e.importance, confidence: 1 });
    expect(doc.contentHash).toBe(contentHash(doc.text));
    expect(episodeDocText({ summary: '', rootCause: undefined, corrections: [] })).toBe('');
  });

  it('says each thing once: a repeated outcome, a root cause or correction the summary already holds', () => {
    const summary = 'Deploy failed. Outcome: FAILURE. Outcome: FAILURE. Correction: renew the token first, not the cert.';
    expect(episodeDocText({ summary, rootCause: 'renew the token first', corrections: ['renew the token first, not the cert', 'page the on-call'] })).toBe(
      'Deploy failed. Outcome: FAILURE. Correction: renew the token first, not the cert.\npage the on-call',
    );
  });

  it('says the root cause and a correction once: not again when the summary already quotes them', () => {
    const summary = 'Checkout timed out. Tried: restarted pods. Outcome: FAILURE — root cause: Expired token. Correction: Was actually the token, not the pods.';
    const text = episodeDocText({ summary, rootCause: 'expired token', corrections: ['Was actually the token, not the pods', 'Renew before deploys'] });
    expect(text).toBe(`${summary}\nRenew before deploys`);
    // A root cause the summary clipped or never stated is still added.
    expect(episodeDocText({ summary: 'Checkout timed out.', rootCause: 'expired token', corrections: [] })).toBe('Checkout timed out.\nexpired token');
  });

  it('projects no doc for an open episode or one with nothing to say', () => {
    expect(episodeToDoc(makeEpisode({ closed: false }))).toBeUndefined();
    expect(episodeToDoc(makeEpisode({ summary: '  ', corrections: [] }))).toBeUndefined();
  });

  it('projects a procedure with its Laplace success rate as importance', () => {
    const p = makeProcedure({ name: 'hotfix', trigger: 'outage', steps: ['revert', 'ship'], successCount: 3, failureCount: 1 });
    const doc = procedureToDoc(p);
    expect(doc.text).toBe('hotfix\noutage\nrevert\nship');
    expect(doc.importance).toBeCloseTo(4 / 6, 12);
    expect(procedureToDoc({ ...p, successCount: 0, failureCount: 0 }).importance).toBe(0.5);
    expect(doc).toMatchObject({ kind: 'procedure', ts: p.updatedAt, contentHash: contentHash(doc.text) });
  });

  it('projects an example as its query, typed by polarity, hashed by the query alone', () => {
    const e = makeExample({ query: 'how to rotate keys', response: 'run rotate', polarity: 'negative' });
    const doc = exampleToDoc(e);
    expect(doc).toMatchObject({ kind: 'example', text: 'how to rotate keys', type: 'negative', contentHash: contentHash('how to rotate keys') });
    expect(doc.contentHash).not.toBe(e.contentHash);
  });
});
