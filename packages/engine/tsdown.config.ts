// The engine package's build: dist/ holds ESM with declarations for each entry package.json's
// exports name. It runs in Node and in browsers (nothing imports node:), and has no runtime
// dependency: zod, which the rulesets declare their schemas with, is bundled into the chunks that
// use it, so a game client installs this folder and nothing else.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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
    match: 'src/engine/index.ts',
    agents: 'src/agents/index.ts',
    ...Object.fromEntries(RULESETS.map((id) => [`rulesets/${id}`, `src/rulesets/${id}/index.ts`])),
  },
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  outDir: 'dist',
  fixedExtension: false,
  // the engine's sources only (the root tsconfig's paths and options): declarations are emitted for
  // every file the tsconfig includes, and the root one holds the tests and benches too
  tsconfig: './tsconfig.build.json',
  deps: { alwaysBundle: ['zod'] },
  // declarations from TypeScript 7's native compiler (no type check here: npm test's tsc does that);
  // the JS-API path of TypeScript 6 took most of the build's time
  dts: { tsgo: { path: fileURLToPath(new URL('../../node_modules/typescript7/bin/tsc', import.meta.url)) } },
  clean: true,
  sourcemap: false,
});
