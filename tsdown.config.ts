// The library build: dist/ holds ESM with declarations for the public entry points named in
// package.json `exports` (the explicit list in src/index.ts, the kernel, and each shipped ruleset).
// The CLI is not built: bin/arbiter.js runs the sources through tsx. Dependencies stay external.

import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsdown';

// the shipped rulesets are the folders src/registry.ts imports (the one place their ids are written)
const RULESETS = [
  ...readFileSync(new URL('./src/registry.ts', import.meta.url), 'utf8').matchAll(
    /from '\.\/rulesets\/([a-z][a-z0-9-]*)\/index\.ts'/g,
  ),
].map((m) => m[1]);

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
