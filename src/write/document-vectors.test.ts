import { describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { openTestMemory, sharedEmbedder } from '../../testing/memory-fixture.js';
import { createHeuristicReranker } from '../adapters/rerankers/heuristic.js';
import { openSqliteStorage } from '../adapters/storage/sqlite/index.js';
import { createMemory } from '../memory.js';
import type { Embedder } from '../ports/embedder.js';
import { DEFAULT_SEGMENTS, documentTexts, documentVectorModel, embedDocuments, informativeSentences, MAX_SENTENCE_SEGMENTS, RUN_CHARS, SENTENCE_CHARS, sentenceSegments, speakerForm, WHOLE_TEXT_CHARS, wholeText } from './document-vectors.js';

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

describe('speakerForm', () => {
  it("resolves the author's first person to the label's name, contractions and possessives included", () => {
    expect(speakerForm("Melanie: Yeah, I play clarinet! My kids love it, and me too. I'm happy; I’ve been. I'll go, I'd say. Mine, myself.")).toBe(
      "Melanie: Yeah, Melanie play clarinet! Melanie's kids love it, and Melanie too. Melanie is happy; Melanie has been. Melanie will go, Melanie would say. Melanie's, Melanie.",
    );
  });

  it('leaves a text without a label as it is, and the letter I inside tokens alone', () => {
    expect(speakerForm('I went home and my cat was there.')).toBe('I went home and my cat was there.');
    expect(speakerForm('The build failed for one reason: I ran out of disk.')).toBe('The build failed for one reason: I ran out of disk.');
    expect(speakerForm('agent: Disk I/O was slow on I-5, i.e. fine; iPhone and Iris too.')).toBe('agent: Disk I/O was slow on I-5, i.e. fine; iPhone and Iris too.');
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

  it('sums the text and its labelled sentences, in the speaker form, into one unit vector, in one embedder call', async () => {
    const { e, calls } = counting(sharedEmbedder());
    await e.init();
    const [multi, single] = await embedDocuments(e, texts, 'sentences');
    expect(calls.length).toBe(1);
    expect(calls[0]).toEqual([
      'Caroline: Caroline went to the support group yesterday. It was so powerful for Caroline.',
      'Caroline: Caroline went to the support group yesterday.',
      'Caroline: It was so powerful for Caroline.',
      texts[1],
    ]);
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

  it('re-embeds a store written under another recipe when it is opened under this one', async () => {
    const first = await openTestMemory({ indexing: { background: false, documentVectors: 'whole' } });
    try {
      await first.memory.logEvent({ content: text, name: 'Caroline', sessionId: 's1' });
      await first.memory.flush();
      expect(await first.memory.embeddingBacklog()).toBe(0);
      await first.memory.close();
      const reopened = await createMemory({
        storage: await openSqliteStorage({ path: first.path }),
        embedder: sharedEmbedder(),
        reranker: createHeuristicReranker(),
        config: { retention: { sweepIntervalMinutes: 0 }, indexing: { background: false } },
      });
      try {
        expect(await reopened.embeddingBacklog()).toBe(1);
        await reopened.flush();
        expect(await reopened.embeddingBacklog()).toBe(0);
        const [doc] = await reopened.storage.getDocs('default', [1]);
        const [expected] = await embedDocuments(sharedEmbedder(), [`Caroline: ${text}`], 'sentences');
        expect(dot((await reopened.storage.getEmbeddings([doc!.contentHash])).get(doc!.contentHash)!, expected!)).toBeCloseTo(1, 5);
      } finally {
        await reopened.close();
      }
    } finally {
      rmSync(first.dir, { recursive: true, force: true });
    }
  });

  it('brings a first-person turn closer to a question that names its speaker', async () => {
    const e = sharedEmbedder();
    await e.init();
    const turn = 'Melanie: Yeah, I play clarinet! Started when I was young.';
    const [resolved] = await embedDocuments(e, [turn], 'sentences');
    // The same recipe on the text as written: the turn and its sentences, summed.
    const parts = await e.embed([turn, ...sentenceSegments(turn)]);
    const sum = parts[0]!.map((_, i) => parts.reduce((acc, p) => acc + p[i]!, 0));
    const asWritten = sum.map((x) => x / Math.hypot(...sum));
    const [query] = await e.embed(['What instruments does Melanie play?']);
    expect(parts.length).toBe(3);
    expect(dot(resolved!, query!)).toBeGreaterThan(dot(asWritten, query!) + 0.01);
  });
});

describe('embedding work on long texts', () => {
  const topics = ['migration', 'backups', 'certificates', 'latency', 'billing', 'invoices', 'kubernetes', 'payments'];
  const long = `assistant: ${Array.from({ length: 400 }, (_, i) => `Paragraph ${i} talks about ${topics[i % topics.length]} and the ${topics[(i * 3) % topics.length]} plan in some detail.`).join(' ')}`;

  it('embeds at most 1 + MAX_SENTENCE_SEGMENTS texts of bounded length for a memory of any size, covering all of it', () => {
    expect(long.length).toBeGreaterThan(20_000);
    const segments = sentenceSegments(long);
    expect(segments.length).toBeLessThanOrEqual(MAX_SENTENCE_SEGMENTS);
    for (const s of segments) expect(s.length).toBeLessThanOrEqual(RUN_CHARS + 'assistant: '.length);
    expect(wholeText(long).length).toBe(WHOLE_TEXT_CHARS);
    // Each run starts where the one before it left off: the last run opens in the text's last part.
    const paragraphs = segments.map((s) => Number(/Paragraph (\d+)/.exec(s)?.[1]));
    expect(paragraphs[0]).toBe(0);
    expect(paragraphs.at(-1)).toBeGreaterThan(300);
    expect(paragraphs).toEqual([...paragraphs].sort((x, y) => x - y));
  });

  it('with a long-text threshold, takes the most informative sentences of a longer body instead', () => {
    const segments = sentenceSegments(long, { ...DEFAULT_SEGMENTS, longTextChars: 4_000 });
    expect(segments.length).toBe(MAX_SENTENCE_SEGMENTS);
    for (const s of segments) expect(s.length).toBeLessThanOrEqual(SENTENCE_CHARS + 'assistant: '.length);
  });

  it('picks the sentences that cover most content words, in text order', () => {
    const picked = informativeSentences(['The cat sat.', 'The cat sat again today.', 'Invoices are paid monthly by transfer.', 'Kubernetes upgrades happen quarterly.'], 2);
    expect(picked).toEqual(['Invoices are paid monthly by transfer.', 'Kubernetes upgrades happen quarterly.']);
  });

  it('follows a segment policy: runs covering every sentence, one text per sentence, or the whole text alone', () => {
    const sentences = long.slice('assistant: '.length).split(/(?<=\.) /);
    const cover = sentenceSegments(long, { ...DEFAULT_SEGMENTS, runChars: Infinity });
    expect(cover.length).toBeLessThanOrEqual(MAX_SENTENCE_SEGMENTS);
    expect(cover.map((r) => r.slice('assistant: '.length)).join(' ')).toBe(sentences.join(' '));
    expect(sentenceSegments(long, { ...DEFAULT_SEGMENTS, maxSegments: Infinity })).toHaveLength(sentences.length);
    expect(sentenceSegments(long, { ...DEFAULT_SEGMENTS, maxSegments: 0 })).toEqual([]);
  });

  it('documentTexts is the whole text first, then its segments, each in the speaker form', () => {
    const text = 'Caroline: I went to the support group yesterday. It was so powerful. I felt heard.';
    expect(documentTexts(text)).toEqual([
      speakerForm(text),
      'Caroline: Caroline went to the support group yesterday.',
      'Caroline: It was so powerful.',
      'Caroline: Caroline felt heard.',
    ]);
    expect(documentTexts(long)).toHaveLength(1 + sentenceSegments(long).length);
  });

  it('leaves texts under the long-text threshold as they were embedded before', () => {
    const text = 'Caroline: I went to the support group yesterday. It was so powerful. I felt heard.';
    expect(sentenceSegments(text)).toEqual(['Caroline: I went to the support group yesterday.', 'Caroline: It was so powerful.', 'Caroline: I felt heard.']);
    expect(wholeText(text)).toBe(text);
  });
});
