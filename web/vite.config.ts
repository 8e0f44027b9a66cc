import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Relative asset URLs: the same build is served at /ui/ and at <prefix>/ui/ (and behind proxies),
// and routing uses the URL hash, so index.html is the only document.
export default defineConfig({
  base: './',
  plugins: [react()],
  // The server package's typed client (`scenarist/client`) from its sources: every call is typed by the
  // schema generated from the server's OpenAPI document; and its data-edit rules (`scenarist/edit-rules`),
  // so the what-if preview runs the server's own code (tsconfig.json maps the same names).
  resolve: {
    alias: {
      'scenarist/client': fileURLToPath(new URL('../src/client/index.ts', import.meta.url)),
      'scenarist/edit-rules': fileURLToPath(new URL('../src/domain/edits/index.ts', import.meta.url)),
      // The row comparison Compare's inputs use (src/scenarios/tree/table-diff.ts): the Data page diffs two versions with it.
      'scenarist/table-diff': fileURLToPath(new URL('../src/scenarios/tree/table-diff.ts', import.meta.url)),
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Vega (vega-embed, vega-lite, vega-interpreter: about 870 KB, 300 KB gzipped) is one chunk loaded only where a chart is shown.
    chunkSizeWarningLimit: 900,
  },
});
