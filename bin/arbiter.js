#!/usr/bin/env node
// The `arbiter` command: runs the build of the command line (build/cli, made by `npm ci`). In a
// source checkout it first rebuilds when a source is newer (scripts/cli-build.mjs); where there is
// no build and none can be made, it runs the TypeScript sources through tsx (slower to start).
import { existsSync } from 'node:fs';

const checkout = new URL('../scripts/cli-build.mjs', import.meta.url);
let built = existsSync(new URL('../build/cli/.built', import.meta.url));
if (existsSync(checkout) && process.env.ARBITER_FROM_SOURCE !== '1') {
  const { buildCliIfStale, cliStale } = await import(checkout.href);
  if (cliStale()) built = await buildCliIfStale();
}
// by URL, so the type checker reads the sources rather than the build
if (built && process.env.ARBITER_FROM_SOURCE !== '1')
  await import(new URL('../build/cli/main.js', import.meta.url).href);
else {
  // tsx reads tsconfig `paths` (the @arbiter/engine sources) from the working directory's
  // tsconfig unless told where it is; the command may run from anywhere
  process.env.TSX_TSCONFIG_PATH ??= new URL('../tsconfig.json', import.meta.url).pathname;
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
