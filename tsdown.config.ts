// The application's library build: dist/ holds ESM with declarations for the one entry point
// package.json's exports name (the explicit list in src/index.ts). The engine stays a dependency,
// imported from `@arbiter/engine` (packages/engine builds its own dist/), like every other package.
// The CLI has its own build (scripts/tsdown.cli.config.ts).

import { fileURLToPath } from 'node:url';
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
  // declarations from TypeScript 7's native compiler, as the engine's build does
  // the sources only: declarations are emitted for every file the tsconfig includes
  tsconfig: 'tsconfig.build.json',
  dts: { tsgo: { path: fileURLToPath(new URL('node_modules/typescript7/bin/tsc', import.meta.url)) } },
  clean: true,
  sourcemap: false,
});
