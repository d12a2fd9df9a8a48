/**
 * `npx tsx bench/corpora/generate.ts`: writes the corpora of `npm run bench:corpora` (deterministic: the same
 * bytes every run). The questions, their evidence and their tune/eval split are written in src/; the script only
 * lays the memories out around them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chatsCorpus } from './src/chats.js';
import { faqCorpus } from './src/faq.js';
import { longChatsCorpus } from './src/long-chats.js';
import { longTurnsCorpus } from './src/long-turns.js';
import { chatsRewordedCorpus, longLexicalCorpus } from './src/margins.js';
import { sharedWordCorpus } from './src/shared-word.js';
import { tracesCorpus } from './src/traces.js';
import { whoSaidCorpus } from './src/who-said.js';

for (const corpus of [chatsCorpus(), tracesCorpus(), faqCorpus(), longChatsCorpus(), longTurnsCorpus(), sharedWordCorpus(), chatsRewordedCorpus(), longLexicalCorpus(), whoSaidCorpus()]) {
  for (const q of corpus.questions) {
    if (q.evidence.some((e) => e === undefined)) throw new RangeError(`${corpus.name} ${q.id}: evidence key without a memory`);
  }
  const file = join(import.meta.dirname, `${corpus.name}.json`);
  writeFileSync(file, `${JSON.stringify(corpus, null, 1)}\n`);
  const chars = corpus.docs.reduce((s, d) => s + (d.content?.length ?? 0), 0);
  process.stdout.write(`${corpus.name}: ${corpus.docs.length} memories (${chars} characters), ${corpus.questions.length} questions → ${file}\n`);
}
