import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Relative asset URLs: the same build is served at /ui/ and at <prefix>/ui/ (and behind proxies),
// and routing uses the URL hash, so index.html is the only document.
export default defineConfig({
  base: './',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 700,
  },
});
