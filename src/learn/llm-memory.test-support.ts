/**
 * Test support (not a test): real memories (SQLite + USE-lite, testing/memory-fixture) with, on request, an LLM
 * that is an OpenAI-compatible server on loopback speaking the real protocol, driven by a script. Call
 * `cleanup()` in `afterEach`.
 */
import { fakeOpenAi, type Script } from '../adapters/llms/fake-protocols.test-support.js';
import { startLoopback, type Loopback } from '../adapters/llms/loopback.test-support.js';
import { createOpenAiCompatibleLlm } from '../adapters/llms/openai-compatible.js';
import type { EngramConfigInput } from '../core/config.js';
import type { Llm } from '../ports/llm.js';
import { openTestMemory, type TestMemory } from '../../testing/memory-fixture.js';

export interface LlmMemories {
  /** A memory with background learning off (plus `config`), and the scripted LLM when `script` is given. */
  open(config?: EngramConfigInput, script?: Script): Promise<TestMemory>;
  cleanup(): Promise<void>;
}

export function llmMemories(): LlmMemories {
  let tm: TestMemory | undefined;
  let server: Loopback | undefined;
  return {
    async open(config = {}, script) {
      let llm: Llm | undefined;
      if (script) {
        server = await startLoopback(fakeOpenAi(script));
        llm = createOpenAiCompatibleLlm({ baseUrl: `${server.origin}/v1`, model: 'local-model' }, { backoff: { baseDelayMs: 1, maxDelayMs: 2 } });
      }
      tm = await openTestMemory({ indexing: { background: false }, learn: { engine: { background: false } }, ...config }, undefined, llm);
      return tm;
    },
    async cleanup() {
      await tm?.cleanup();
      await server?.close();
      tm = undefined;
      server = undefined;
    },
  };
}
