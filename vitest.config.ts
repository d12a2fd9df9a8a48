import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  // examples/ import the package as users do (`engram`, `engram/langgraph` …); tests run them against src/.
  resolve: {
    alias: [
      { find: /^engram$/, replacement: src('index.ts') },
      { find: /^engram\/(langgraph|ai-sdk|openai-agents)$/, replacement: src('integrations/$1/index.ts') },
    ],
  },
  test: {
    include: ['src/**/*.test.ts', 'testing/**/*.test.ts', 'bench/**/*.test.ts'],
    globalSetup: ['testing/global-setup.ts'],
    pool: 'forks',
    // vitest's default is one fork fewer than there are cores: a single fork on a 2-core machine, which leaves a
    // core idle while a file waits on a child process, a server or the database. Test files isolate what they
    // share (a scratch PostgreSQL database per run and a schema per test, random Redis key prefixes, free ports,
    // temp dirs), so two run side by side.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
