import { defineConfig } from 'vitest/config';

/** Checks that need third-party data, run as benches with the data's path given (never part of `npm test`). */
export default defineConfig({
  test: { include: ['bench/**/*.data-test.ts'], pool: 'forks', testTimeout: 60_000 },
});
