/** The inspector's build: served by `engram serve` under /ui from dist-ui/ at the package root. */
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

// A build is always the production one, whatever NODE_ENV the caller has (vitest sets "test", which would
// otherwise give React's development runtime: several times slower to render).
process.env.NODE_ENV = 'production';

export default defineConfig({
  root: here,
  base: '/ui/',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist-ui', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1500,
  },
});
