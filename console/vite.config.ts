// Builds the console (`npm run build`) into dist/console, served by the engine at /console
// (src/http/console.ts): hashed file names under assets/, nothing fetched at run time.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // GraphiQL and its editor are most of the bundle; the engine gzips it once at start.
    chunkSizeWarningLimit: 4096,
    sourcemap: false,
  },
});
