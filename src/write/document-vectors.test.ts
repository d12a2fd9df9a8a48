import { describe, expect, it } from 'vitest';
import { openTestMemory, sharedEmbedder } from '../../testing/memory-fixture.js';
import type { Embedder } from '../ports/embedder.js';
import { documentVectorModel, embedDocuments, MAX_SENTENCE_SEGMENTS, sentenceSegments } from './document-vectors.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('sentenceSegments', () => {
  it('splits a labelled turn into sentences that each carry the label', () => {
    expect(sentenceSegments('Caroline: I went to the support group yesterday. It was so powerful for me. Did you go there?')).toEqual([
      'Caroline: I went to the support group yesterday.',
      'Caroline: It was so powerful for me.',
      'Caroline: Did you go there?',
    ]);
  });

  it('adds nothing for one sentence, and joins a very short sentence to the next', () => {
    expect(sentenceSegments('Bob: I painted that lake sunrise last year.')).toEqual([]);
    expect(sentenceSegments('Bob: Yes! I painted that lake sunrise last year.')).toEqual([]);
    expect(sentenceSegments('Bob: Wow! I painted it last year. The colours are from the lake.')).toEqual([
      'Bob: Wow! I painted it last year.',
      'Bob: The colours are from the lake.',
    ]);
  });

  it('takes no label from a long clause before a colon, and none from a text without one', () => {
    expect(sentenceSegments('The build failed for one reason: the disk was full. We cleared the cache and retried.')).toEqual([
      'The build failed for one reason: the disk was full.',
      'We cleared the cache and retried.',
    ]);
  });

  it(`cuts a long text into at most ${MAX_SENTENCE_SEGMENTS} runs of consecutive sentences, losing none`, () => {
    const sentences = Array.from({ length: 30 }, (_, i) => `Step number ${i} finished without errors.`);
    const runs = sentenceSegments(`agent: ${sentences.join(' ')}`);
    expect(runs.length).toBe(MAX_SENTENCE_SEGMENTS - 2); // 30 sentences, 3 a run
    expect(runs.every((r) => r.startsWith('agent: '))).toBe(true);
    expect(runs.map((r) => r.slice('agent: '.length)).join(' ')).toBe(sentences.join(' '));
  });
});

describe('embedDocuments (USE-lite)', () => {
  const counting = (inner: Embedder) => {
    const calls: string[][] = [];
    const e: Embedder = {
      get model() {
        return inner.model;
      },
      get dimension() {
        return inner.dimension;
      },
      init: () => inner.init(),
      close: () => inner.close(),
      embed: (t, o) => {
        calls.push([...t]);
        return inner.embed(t, o);
      },
    };
    return { e, calls };
  };
  const texts = ['Caroline: I went to the support group yesterday. It was so powerful for me.', 'Bob: Just one sentence here.'];

  it('sums the text and its labelled sentences into one unit vector, in one embedder call', async () => {
    const { e, calls } = counting(sharedEmbedder());
    await e.init();
    const [multi, single] = await embedDocuments(e, texts, 'sentences');
    expect(calls.length).toBe(1);
    expect(calls[0]).toEqual([texts[0], 'Caroline: I went to the support group yesterday.', 'Caroline: It was so powerful for me.', texts[1]]);
    const [whole, s1, s2] = await sharedEmbedder().embed(calls[0]!.slice(0, 3));
    const sum = whole!.map((x, i) => x + s1![i]! + s2![i]!);
    const norm = Math.hypot(...sum);
    expect(Math.abs(dot(multi!, multi!) - 1)).toBeLessThan(1e-5);
    for (let i = 0; i < sum.length; i++) expect(multi![i]).toBeCloseTo(sum[i]! / norm, 5);
    // A one-sentence text keeps its own vector.
    const [own] = await sharedEmbedder().embed([texts[1]!]);
    expect(dot(single!, own!)).toBeCloseTo(1, 5);
  });

  it('embeds the texts alone in `whole` mode, and files the two recipes under different keys', async () => {
    const { e, calls } = counting(sharedEmbedder());
    await e.init();
    const out = await embedDocuments(e, texts, 'whole');
    expect(calls).toEqual([texts]);
    expect(out.length).toBe(2);
    expect(documentVectorModel('m@1', 'whole')).toBe('m@1');
    expect(documentVectorModel('m@1', 'sentences')).not.toBe('m@1');
  });
});

describe('the indexer files memories under the configured recipe', () => {
  const text = 'I went to the support group yesterday. It was so powerful for me.';
  const stored = async (documentVectors?: 'sentences' | 'whole') => {
    const t = await openTestMemory({ indexing: { background: false, ...(documentVectors ? { documentVectors } : {}) } });
    try {
      await t.memory.logEvent({ content: text, name: 'Caroline', sessionId: 's1' });
      await t.memory.flush();
      const [doc] = await t.memory.storage.getDocs('default', [1]);
      return (await t.memory.storage.getEmbeddings([doc!.contentHash])).get(doc!.contentHash)!;
    } finally {
      await t.cleanup();
    }
  };

  it('sentences by default, the text alone with `whole`', async () => {
    const e = sharedEmbedder();
    await e.init();
    const [expected] = await embedDocuments(e, [`Caroline: ${text}`], 'sentences');
    const [whole] = await e.embed([`Caroline: ${text}`]);
    const bySentences = await stored(); // the default
    expect(dot(bySentences, expected!)).toBeCloseTo(1, 5);
    expect(dot(bySentences, whole!)).toBeLessThan(0.999);
    expect(dot(await stored('whole'), whole!)).toBeCloseTo(1, 5);
  });
});
