// Builds the console (`npm run build`) into dist/console, served by the engine at /console
// (src/http/console.ts): hashed file names under assets/, nothing fetched at run time.
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/**
 * GraphiQL's stylesheet embeds its Roboto and Fira Code fonts (34 faces, some 270 KB gzipped:
 * more than the rest of the API section's styles and script together); the console draws
 * GraphiQL in the system's fonts instead (sections/explorer sets GraphiQL's font variables).
 */
const withoutGraphiQLFonts: Plugin = {
  name: 'without-graphiql-fonts',
  enforce: 'pre',
  transform(code, id) {
    return /[\\/]graphiql[\\/]dist[\\/]style\.css$/.test(id) ? code.replace(/@font-face\s*\{[^}]*\}/g, '') : null;
  },
};

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  logLevel: 'warn',
  plugins: [withoutGraphiQLFonts],
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // GraphiQL and its editor are most of the bundle; the engine gzips it once at start.
    chunkSizeWarningLimit: 4096,
    sourcemap: false,
    rollupOptions: {
      // React libraries mark their modules "use client" (for server components); in a browser-only bundle that means nothing.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
