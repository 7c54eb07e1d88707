import { defineConfig } from 'vite';

// A relative base: `tfpipe view` serves the bundle under a per-run token path.
export default defineConfig({
  base: './',
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    // The polyfill would be an inline script, which the page's Content-Security-Policy forbids.
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
  worker: { format: 'es' },
});
