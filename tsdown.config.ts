// The application's library build: dist/ holds ESM with declarations for the one entry point
// package.json's exports name (the explicit list in src/index.ts). The engine stays a dependency,
// imported from `@arbiter/engine` (packages/engine builds its own dist/), like every other package.
// The CLI has its own build (scripts/tsdown.cli.config.ts).

import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  // .js and .d.ts, as package.json's exports name them ("type": "module")
  fixedExtension: false,
  deps: { neverBundle: [/^@arbiter\/engine(\/|$)/] },
  dts: true,
  clean: true,
  sourcemap: false,
});
