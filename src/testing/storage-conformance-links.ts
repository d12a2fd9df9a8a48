import { describe, expect, it } from 'vitest';
import type { Link, LinkType } from '../core/types.js';
import type { TraverseQuery } from '../ports/storage.js';
import { makeEvidence, makeLink } from './storage-factories-learn.js';
import { makeFact, reviseFact } from './storage-factories.js';
import { expectCode, type StorageHarness } from './storage-harness.js';

/** Readable node ids for graph tests (links may join any memories; storage does not resolve them). */
const node = (name: string) => `eps_${name.toUpperCase().padEnd(26, '0')}`;

export function describeLinks(h: StorageHarness): void {
  /** Stores `a>b` edges of one type, weight 0.5, created in list order; returns the stored links by "a>b". */
  async function graph(edges: string[], type: LinkType = 'LED_TO'): Promise<Map<string, Link>> {
    const links = edges.map((e, i) => {
      const [from, to] = e.split('>') as [string, string];
      return makeLink({ fromId: node(from), toId: node(to), type, weight: 0.5, createdAt: 1000 + i });
    });
    const stored = await h.storage.putLinks(links);
    return new Map(edges.map((e, i) => [e, stored[i]!]));
  }
  const walk = async (q: Partial<TraverseQuery> & { from: string[] }) => {
    const { from, ...rest } = q;
    const got = await h.storage.traverse({ tenant: 'tenant-a', ids: from.map(node), direction: 'out', maxDepth: 10, limit: 100, ...rest });
    const name = (id: string) => id.slice(4, 5).toLowerCase();
    return got.map((x) => `${name(x.link.fromId)}>${name(x.link.toId)}@${x.depth}`);
  };

  describe('links', () => {
    it('stores links and returns them as stored, in input order', async () => {
      const a = makeLink({ fromId: node('a'), toId: node('b'), evidence: 'b retried a' });
      const b = makeLink({ fromId: node('b'), toId: node('c'), type: 'CAUSED_BY' });
      expect(await h.storage.putLinks([a, b])).toEqual([a, b]);
      expect(await h.storage.getLinks({ tenant: 'tenant-a', ids: [node('b')], direction: 'both' })).toEqual(
        [a, b].sort((x, y) => x.createdAt - y.createdAt),
      );
      expect(await h.storage.putLinks([])).toEqual([]);
    });

    it('reinforces a re-asserted link: same id and creation time, weight max(old, new), origin reinforced', async () => {
      const first = makeLink({ fromId: node('a'), toId: node('b'), weight: 0.6, origin: 'explicit', createdAt: 1000, evidence: 'first' });
      await h.storage.putLinks([first]);
      const weaker = makeLink({ fromId: node('a'), toId: node('b'), weight: 0.2, origin: 'inferred', createdAt: 5000 });
      const [r1] = await h.storage.putLinks([weaker]);
      expect(r1).toEqual({ ...first, origin: 'reinforced' });
      const stronger = makeLink({ fromId: node('a'), toId: node('b'), weight: 0.9, createdAt: 6000, evidence: 'second' });
      const [r2] = await h.storage.putLinks([stronger]);
      expect(r2).toEqual({ ...first, weight: 0.9, origin: 'reinforced', evidence: 'second' });
      // Another type, or the reverse direction, is another link.
      const [other] = await h.storage.putLinks([makeLink({ fromId: node('a'), toId: node('b'), type: 'RETRY_OF' })]);
      const [reverse] = await h.storage.putLinks([makeLink({ fromId: node('b'), toId: node('a') })]);
      expect(new Set([other!.id, reverse!.id, first.id]).size).toBe(3);
      expect(await h.storage.getLinks({ tenant: 'tenant-a', ids: [node('a')], direction: 'both' })).toHaveLength(3);
      // A repeat inside one batch reinforces the first of the pair.
      const [x, y] = await h.storage.putLinks([
        makeLink({ fromId: node('c'), toId: node('d'), weight: 0.3 }),
        makeLink({ fromId: node('c'), toId: node('d'), weight: 0.4 }),
      ]);
      expect(y).toEqual({ ...x, weight: 0.4, origin: 'reinforced' });
    });

    it('gets links by direction and type', async () => {
      const g = await graph(['a>b', 'b>c', 'c>a']);
      const [cause] = await h.storage.putLinks([makeLink({ fromId: node('b'), toId: node('d'), type: 'CAUSED_BY', createdAt: 2000 })]);
      const ids = (links: Link[]) => links.map((l) => l.id);
      const get = (direction: 'in' | 'out' | 'both', types?: LinkType[]) =>
        h.storage.getLinks({ tenant: 'tenant-a', ids: [node('b')], direction, ...(types ? { types } : {}) });
      expect(ids(await get('out'))).toEqual([g.get('b>c')!.id, cause!.id]);
      expect(ids(await get('in'))).toEqual([g.get('a>b')!.id]);
      expect(ids(await get('both'))).toEqual([g.get('a>b')!.id, g.get('b>c')!.id, cause!.id]);
      expect(ids(await get('out', ['CAUSED_BY']))).toEqual([cause!.id]);
      expect(await get('both', ['RETRY_OF'])).toEqual([]);
      expect(await h.storage.getLinks({ tenant: 'tenant-a', ids: [], direction: 'both' })).toEqual([]);
    });

    it('refuses malformed links and links from a memory to itself, writing nothing from the batch', async () => {
      const good = makeLink({ fromId: node('a'), toId: node('b') });
      const err = await expectCode(h.storage.putLinks([good, makeLink({ fromId: node('c'), toId: node('c') })]), 'VALIDATION');
      expect(err.issues.map((i) => i.path)).toContain('links.1.toId');
      await expectCode(h.storage.putLinks([{ ...good, type: 'LIKES' as LinkType }]), 'VALIDATION');
      await expectCode(h.storage.putLinks([{ ...good, weight: Number.NaN }]), 'VALIDATION');
      expect(await h.storage.getLinks({ tenant: 'tenant-a', ids: [node('a'), node('c')], direction: 'both' })).toEqual([]);
    });

    it('deletes links touching memory ids, or named by their own id', async () => {
      const g = await graph(['a>b', 'b>c', 'c>d', 'd>e']);
      expect(await h.storage.deleteLinks('tenant-a', [node('b')])).toBe(2);
      expect(await h.storage.deleteLinks('tenant-a', [g.get('d>e')!.id])).toBe(1);
      expect(await h.storage.deleteLinks('tenant-a', [node('b'), node('z')])).toBe(0);
      expect(await walk({ from: ['a', 'c'], direction: 'both' })).toEqual(['c>d@1']);
    });
  });

  describe('traverse', () => {
    it('walks breadth-first along the direction, each link once with its hop depth, up to maxDepth', async () => {
      await graph(['a>b', 'b>c', 'c>d', 'd>e']);
      expect(await walk({ from: ['a'], maxDepth: 2 })).toEqual(['a>b@1', 'b>c@2']);
      expect(await walk({ from: ['a'] })).toEqual(['a>b@1', 'b>c@2', 'c>d@3', 'd>e@4']);
      expect(await walk({ from: ['e'], direction: 'in', maxDepth: 3 })).toEqual(['d>e@1', 'c>d@2', 'b>c@3']);
      expect(await walk({ from: ['e'], direction: 'out' })).toEqual([]);
      expect(await walk({ from: ['c'], direction: 'both', maxDepth: 1 }).then((x) => x.sort())).toEqual(['b>c@1', 'c>d@1']);
      expect(await walk({ from: ['c'], direction: 'both' }).then((x) => x.sort())).toEqual(['a>b@2', 'b>c@1', 'c>d@1', 'd>e@2']);
      expect(await walk({ from: ['a'], maxDepth: 0 })).toEqual([]);
      expect(await walk({ from: [] })).toEqual([]);
    });

    it('terminates on cycles and gives each link its shortest depth', async () => {
      await graph(['a>b', 'b>c', 'c>a']);
      expect(await walk({ from: ['a'], maxDepth: 50 })).toEqual(['a>b@1', 'b>c@2', 'c>a@3']);
      expect(await walk({ from: ['b'], direction: 'both', maxDepth: 50 }).then((x) => x.sort())).toEqual(['a>b@1', 'b>c@1', 'c>a@2']);
    });

    it('returns each link of a dense cyclic graph exactly once', async () => {
      const names = 'abcdefgh'.split('');
      await graph(names.flatMap((x) => names.filter((y) => y !== x).map((y) => `${x}>${y}`)));
      const got = await walk({ from: ['a'], direction: 'both', maxDepth: 6, limit: 1000 });
      expect(got).toHaveLength(names.length * (names.length - 1));
      expect(new Set(got.map((x) => x.split('@')[0])).size).toBe(got.length);
      // Links touching 'a' are one hop away; every other link starts one hop from 'a'.
      for (const x of got) expect(x.endsWith(x.includes('a') ? '@1' : '@2')).toBe(true);
    });

    it('reaches a shared node once by its nearest path (diamonds and shortcuts)', async () => {
      await graph(['a>b', 'a>c', 'b>d', 'c>d', 'd>e', 'a>e']);
      const got = await walk({ from: ['a'] });
      expect(got.slice(0, 3).sort()).toEqual(['a>b@1', 'a>c@1', 'a>e@1']);
      expect(got.slice(3).sort()).toEqual(['b>d@2', 'c>d@2', 'd>e@3']);
    });

    it('follows only links of the given types, and starts from several ids at once', async () => {
      await graph(['a>b', 'b>c']);
      await graph(['a>x', 'x>y'], 'CAUSED_BY');
      await graph(['y>c'], 'LED_TO');
      expect(await walk({ from: ['a'], types: ['CAUSED_BY'] })).toEqual(['a>x@1', 'x>y@2']);
      expect(await walk({ from: ['a'], types: ['LED_TO'] })).toEqual(['a>b@1', 'b>c@2']);
      expect((await walk({ from: ['a'] })).sort()).toEqual(['a>b@1', 'a>x@1', 'b>c@2', 'x>y@2', 'y>c@3'].sort());
      expect((await walk({ from: ['b', 'x'], maxDepth: 1 })).sort()).toEqual(['b>c@1', 'x>y@1']);
    });

    it('returns at most limit links, shallowest first', async () => {
      await graph(['a>b', 'a>c', 'b>d', 'c>e', 'd>f']);
      const got = await walk({ from: ['a'], limit: 3 });
      expect(got).toHaveLength(3);
      expect(got.slice(0, 2).sort()).toEqual(['a>b@1', 'a>c@1']);
      expect(['b>d@2', 'c>e@2']).toContain(got[2]);
      expect(await walk({ from: ['a'], limit: 0 })).toEqual([]);
    });
  });

  describe('fact evidence', () => {
    it('adds evidence for fact versions and reads it back oldest first', async () => {
      const f = makeFact();
      await h.storage.putFact(f);
      const rows = [
        makeEvidence({ factId: f.id, episodeId: node('b'), polarity: 'contradict', at: 2000 }),
        makeEvidence({ factId: f.id, episodeId: node('a'), at: 1000 }),
      ];
      await h.storage.addFactEvidence(rows);
      expect(await h.storage.getFactEvidence('tenant-a', f.id)).toEqual([rows[1], rows[0]]);
      const v2 = reviseFact(f, 'a revised statement');
      await h.storage.putFact(v2);
      expect(await h.storage.getFactEvidence('tenant-a', v2.id)).toEqual([]);
      expect(await h.storage.getFactEvidence('tenant-a', f.id)).toHaveLength(2);
    });

    it('keeps one judgement per fact version and episode: re-adding replaces it', async () => {
      const f = makeFact();
      await h.storage.putFact(f);
      await h.storage.addFactEvidence([makeEvidence({ factId: f.id, episodeId: node('a'), polarity: 'support', weight: 0.4, at: 1000 })]);
      const again = makeEvidence({ factId: f.id, episodeId: node('a'), polarity: 'contradict', weight: 0.7, at: 3000 });
      await h.storage.addFactEvidence([again]);
      expect(await h.storage.getFactEvidence('tenant-a', f.id)).toEqual([again]);
    });

    it('refuses evidence for a fact the tenant does not have, writing nothing from the batch', async () => {
      const f = makeFact();
      await h.storage.putFact(f);
      const batch = [makeEvidence({ factId: f.id, episodeId: node('a') }), makeEvidence({ factId: 'fct_01ARZ3NDEKTSV4RRFFQ69G5FAV', episodeId: node('a') })];
      await expectCode(h.storage.addFactEvidence(batch), 'NOT_FOUND');
      await expectCode(h.storage.addFactEvidence([makeEvidence({ factId: f.id, episodeId: node('a'), tenant: 'tenant-b' })]), 'NOT_FOUND');
      await expectCode(h.storage.addFactEvidence([{ ...makeEvidence({ factId: f.id, episodeId: node('a') }), polarity: 'maybe' as 'support' }]), 'VALIDATION');
      expect(await h.storage.getFactEvidence('tenant-a', f.id)).toEqual([]);
    });
  });
}
