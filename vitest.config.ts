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
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
