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

/**
 * `--mode development` builds into dist/console-dev the same console with React's development
 * build: the console's tests run that one, so that a React warning (a missing key, a bad hook)
 * reaches the browser's log, where it fails the test. Users get the production build.
 */
export default defineConfig(({ mode }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  logLevel: 'warn',
  plugins: [withoutGraphiQLFonts],
  // Vite builds with NODE_ENV=production whatever the mode; React picks its build by it.
  ...(mode === 'development' && { define: { 'process.env.NODE_ENV': JSON.stringify('development') } }),
  build: {
    outDir: fileURLToPath(new URL(mode === 'development' ? '../dist/console-dev' : '../dist/console', import.meta.url)),
    minify: mode !== 'development',
    emptyOutDir: true,
    assetsDir: 'assets',
    // GraphiQL and its editor are most of the bundle; the engine gzips it once at start.
    chunkSizeWarningLimit: 4096,
    sourcemap: false,
    rollupOptions: {
      output: {
        // GraphiQL imports CodeMirror's addons one by one once it is drawn: some twenty small
        // chunks fetched in turn. One chunk of CodeMirror and its GraphQL modes is one request.
        manualChunks: (id: string) => (/[\\/]node_modules[\\/](codemirror|codemirror-graphql)[\\/]/.test(id) ? 'codemirror' : undefined),
      },
      // React libraries mark their modules "use client" (for server components); in a browser-only bundle that means nothing.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
}));
