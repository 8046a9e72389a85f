// The kernel and every shipped ruleset bundle for a browser: esbuild (platform browser) bundles
// them, failing on any `node:` import or Node built-in, and the bundle plays a conformance game of
// every ruleset in a fresh `vm` context that holds only web-standard globals (no require, process,
// Buffer). Its event hashes must equal those of the same games run from the sources in Node.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createContext, runInContext } from 'node:vm';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { conformanceGame, ids, type GameReport } from '../fixtures/browser-entry.ts';
import { PACKAGES } from '../../packages/engine/src/registry.ts';

const ROOT = process.cwd();

/** Refuses `node:` specifiers with the importing file named, so a regression says where it is. */
const noNode: Plugin = {
  name: 'no-node-imports',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (a) => ({
      errors: [{ text: `${a.importer} imports ${a.path}: the kernel and rulesets must bundle for a browser` }],
    }));
  },
};

async function bundle(entry: string): Promise<string> {
  const r = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'arbiterBundle',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    plugins: [noNode],
  });
  return r.outputFiles[0].text;
}

/** A context with the globals every browser has that the code may use, and nothing from Node. */
function browserLike(): Record<string, unknown> {
  return { TextEncoder, TextDecoder };
}

type BundleApi = { ids: string[]; conformanceGame(id: string, seed: number): GameReport };

test('the kernel and every ruleset bundle for a browser and play the same games there', async () => {
  const code = await bundle(join(ROOT, 'test/fixtures/browser-entry.ts'));
  const ctx = createContext(browserLike());
  runInContext(`${code}\nglobalThis.api = arbiterBundle;`, ctx, { filename: 'arbiter-browser-bundle.js' });
  const api = ctx.api as BundleApi;
  assert.equal(runInContext('typeof process + typeof require + typeof Buffer', ctx), 'undefinedundefinedundefined');
  assert.deepEqual([...api.ids], ids);
  assert.equal(ids.length, PACKAGES.length);
  for (const id of ids) {
    for (const seed of [3]) {
      const inBundle = api.conformanceGame(id, seed);
      assert.deepEqual([...inBundle.problems], [], `${id} seed ${seed} (bundle)`);
      assert.notEqual(inBundle.outcome, null);
      const fromSources = conformanceGame(id, seed);
      assert.deepEqual(
        { hash: inBundle.hash, moves: inBundle.moves, outcome: inBundle.outcome },
        { hash: fromSources.hash, moves: fromSources.moves, outcome: fromSources.outcome },
        `${id} seed ${seed}: the bundle and the sources played different games`,
      );
    }
  }
});

test('the bundle check has teeth: a node: import below the runners fails the build', async () => {
  await assert.rejects(bundle(join(ROOT, 'src/runners/coverage.ts')), (e: Error) =>
    /imports node:fs: the kernel and rulesets must bundle for a browser/.test(e.message),
  );
});
