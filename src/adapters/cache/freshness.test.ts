import { describe, expect, it } from 'vitest';
import { makeEvents, makeFact, NOW } from '../../testing/storage-factories.js';
import { decodeVersioned, isWindowQuery, serveLiveFact, serveWindow, serveWorkingMemory, windowKeyOf } from './freshness.js';
import { canonicalJson, globEscape, KeyLayout, queryDigest } from './keys.js';

describe('serveWindow', () => {
  const events = makeEvents(3).map((e, i) => ({ ...e, seq: i + 1 }));
  events[1]!.expiresAt = NOW + 100;

  it('answers the same or a later now while nothing in the snapshot has expired', () => {
    const entry = { now: NOW, events };
    expect(serveWindow(entry, NOW)).toEqual({ value: events });
    expect(serveWindow(entry, NOW + 99)).toEqual({ value: events });
  });

  it('misses once any event in it expired (an older one would take its place), and for an earlier now', () => {
    const entry = { now: NOW, events };
    expect(serveWindow(entry, NOW + 100)).toBeUndefined();
    expect(serveWindow(entry, NOW - 1)).toBeUndefined();
  });
});

describe('serveLiveFact and serveWorkingMemory', () => {
  const fact = makeFact({ expiresAt: NOW + 10 });
  const rec = { tenant: 't', sessionId: 's', version: 2, state: {}, updatedAt: NOW, expiresAt: NOW + 10 };

  it('serve a present record at any now before its expiry, earlier ones included', () => {
    expect(serveLiveFact({ now: NOW, fact }, NOW - 1000)).toEqual({ value: fact });
    expect(serveLiveFact({ now: NOW, fact }, NOW + 10)).toBeUndefined();
    expect(serveWorkingMemory({ now: NOW, rec }, NOW + 9)).toEqual({ value: rec });
    expect(serveWorkingMemory({ now: NOW, rec }, NOW + 10)).toBeUndefined();
  });

  it('serve an absence only at or after the now it was observed at', () => {
    expect(serveLiveFact({ now: NOW }, NOW)).toEqual({ value: undefined });
    expect(serveLiveFact({ now: NOW }, NOW - 1)).toBeUndefined();
    expect(serveWorkingMemory({ now: NOW }, NOW + 1)).toEqual({ value: undefined });
    expect(serveWorkingMemory({ now: NOW }, NOW - 1)).toBeUndefined();
  });

  it('decodes versioned entries and rejects malformed ones', () => {
    expect(decodeVersioned('3|{"now":1}')).toEqual({ now: 1 });
    expect(decodeVersioned('{"now":1}')).toBeUndefined();
    expect(decodeVersioned('3|{not json')).toBeUndefined();
  });
});

describe('window keys', () => {
  it('caches lastN and since queries only', () => {
    expect(isWindowQuery({ tenant: 't', now: 1, lastN: 5 })).toBe(true);
    expect(isWindowQuery({ tenant: 't', now: 1, since: 0 })).toBe(true);
    expect(isWindowQuery({ tenant: 't', now: 1, limit: 5 })).toBe(false);
  });

  it('hashes the query without now, whatever the key order; any other difference changes the hash', () => {
    const q1 = windowKeyOf({ tenant: 't', now: 1, lastN: 5, scope: { userId: 'u', sessionId: 's' } });
    const q2 = windowKeyOf({ scope: { sessionId: 's', userId: 'u', agentId: undefined }, lastN: 5, now: 2, tenant: 't' });
    expect(queryDigest(q1)).toBe(queryDigest(q2));
    expect(queryDigest(windowKeyOf({ tenant: 't', now: 1, lastN: 6, scope: { userId: 'u', sessionId: 's' } }))).not.toBe(queryDigest(q1));
    expect(queryDigest(windowKeyOf({ tenant: 't', now: 1, lastN: 5, types: ['message'] }))).not.toBe(
      queryDigest(windowKeyOf({ tenant: 't', now: 1, lastN: 5, types: ['note'] })),
    );
    expect(canonicalJson({ b: [1, { d: 2, c: 3 }], a: 'x' })).toBe('{"a":"x","b":[1,{"c":3,"d":2}]}');
  });

  it("encodes tenants so one cannot forge another tenant's keys, and escapes globs", () => {
    const k = new KeyLayout('p:');
    expect(k.entryBase('events', 'a:b')).toBe('p:ev:a%3Ab:');
    expect(k.familyToken('facts', 'x:y')).toBe('p:gen:fact:x%3Ay');
    expect(globEscape('t*[x]?')).toBe('t\\*\\[x\\]\\?');
  });
});
