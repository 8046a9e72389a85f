// The library build: dist/ holds ESM with declarations for the public entry points named in
// package.json `exports` (the explicit list in src/index.ts, the kernel, and each shipped ruleset).
// The CLI is not built: bin/arbiter.js runs the sources through tsx. Dependencies stay external.

import { defineConfig } from 'tsdown';

const RULESETS = ['tictactoe', 'ground', 'mines', 'bnc', 'duel'];

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    kernel: 'src/kernel/index.ts',
    ...Object.fromEntries(RULESETS.map((id) => [`rulesets/${id}`, `src/rulesets/${id}/index.ts`])),
  },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  // .js and .d.ts, as package.json's exports name them ("type": "module")
  fixedExtension: false,
  dts: true,
  clean: true,
  sourcemap: false,
});
