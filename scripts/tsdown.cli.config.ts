// The command line's build: build/cli/main.js (the `arbiter` process, run by bin/arbiter.js) and
// build/cli/sim-worker.js (the simulation pool's worker), with one chunk per lazily loaded verb,
// so a command evaluates only what it uses. Made by `npm ci` (the `prepare` script) and again by
// bin/arbiter.js when a source is newer (scripts/cli-build.mjs). Packages stay in node_modules,
// except the pure-JS ones every command loads (zod by the rulesets, commander, picocolors): bundled,
// they are a few chunks instead of dozens of files for Node's module loader (measured: `rulesets`
// about 25% less CPU).

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsdown';

// tsdown reads paths from this file's folder (scripts/): name them from the repository root
const root = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));

export default defineConfig({
  entry: { main: root('src/cli/main.ts'), 'sim-worker': root('src/cli/sim-worker.ts') },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: root('build/cli'),
  fixedExtension: false,
  dts: false,
  clean: true,
  sourcemap: false,
  // the engine package is built from its sources with the rest (tsconfig.json's paths point there), so
  // the command line never depends on packages/engine/dist being built
  tsconfig: root('tsconfig.json'),
  deps: { alwaysBundle: [/^@arbiter\/engine(\/|$)/, 'zod', 'commander', 'picocolors'] },
});
