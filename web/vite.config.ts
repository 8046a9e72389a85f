// The web page's build: preact through vite's own JSX transform (no babel preset needed), into web/dist.
// `npm run dev:web` proxies /api (HTTP and WebSocket) to an `arbiter serve` on 127.0.0.1:8080.
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  // '@arbiter/engine/...' resolves to the engine package's sources, as web/tsconfig.json's paths say
  resolve: { tsconfigPaths: true },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 1024,
  },
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:8080', ws: true } },
  },
});
