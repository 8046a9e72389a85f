// `arbiter` as a library, and `@arbiter/engine` alone. tsdown builds both dist/ folders once per
// test run (the engine first: the application imports it by name). A project outside the
// repository that links `arbiter` imports it with plain Node (no tsx), plays a game and type-checks
// against the declarations. The engine is packed as npm would publish it and installed from the
// tarball into an empty project: nothing else may come with it, it must stay small, and the same
// games must come out of its dist/ in Node and in a browser bundle as from the sources.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { build } from 'esbuild';
import { rulesetIds } from '../../packages/engine/src/registry.ts';
import { conformanceGame } from '../fixtures/browser-entry.ts';
import { typeProblems } from '../support/typecheck.ts';

const ROOT = process.cwd();
const ENGINE = join(ROOT, 'packages/engine');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const engineManifest = JSON.parse(readFileSync(join(ENGINE, 'package.json'), 'utf8'));

/** Every file path a package.json points at for consumers. */
function namedPaths(m: { main: string; types: string; exports: unknown }): string[] {
  const out = [m.main, m.types];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  walk(m.exports);
  return out;
}

let built: { status: number | null; output: string } | undefined;
function buildOnce(): { status: number | null; output: string } {
  if (!built) {
    const cli = join(ROOT, 'node_modules/tsdown/dist/run.mjs');
    // a worktree whose node_modules predates the lock file's tsdown says so, instead of a spawn error
    if (!existsSync(cli)) return { status: 1, output: 'tsdown is not installed: run `npm ci` (the lock pins 0.21.10)' };
    let output = '';
    let status: number | null = 0;
    for (const cwd of [ENGINE, ROOT]) {
      const r = spawnSync(process.execPath, [cli, '--log-level', 'warn'], { cwd, encoding: 'utf8' });
      output += `${r.stdout}${r.stderr}`;
      status = r.status;
      if (status !== 0) break;
    }
    built = { status, output };
  }
  return built;
}

/** A consumer project in a scratch folder whose node_modules/arbiter links to this checkout (as `file:` does). */
function consumer(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-consumer-'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { arbiter: `file:${ROOT}` } }),
  );
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'arbiter'), 'dir');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

test('both package.json files name ESM entry points under dist/; the engine has no dependency', () => {
  for (const m of [manifest, engineManifest]) {
    assert.equal(m.type, 'module');
    assert.equal(m.main, './dist/index.js');
    assert.equal(m.types, './dist/index.d.ts');
    for (const p of namedPaths(m)) assert.match(p, /^\.\/(dist\/|package\.json$)/, p);
  }
  assert.deepEqual(Object.keys(manifest.exports), ['.', './package.json']);
  assert.deepEqual(Object.keys(engineManifest.exports), [
    '.',
    './kernel',
    './match',
    './agents',
    './rulesets/*',
    './package.json',
  ]);
  assert.equal(engineManifest.dependencies, undefined, 'the engine installs alone');
  assert.equal(manifest.dependencies['@arbiter/engine'], engineManifest.version, 'the application pins its engine');
  assert.equal(manifest.devDependencies.tsdown, '0.21.10', 'tsdown is pinned exactly');
});

test('tsdown builds both dist/ folders and every path they name exists, with a subpath per registered ruleset', () => {
  const r = buildOnce();
  assert.equal(r.status, 0, r.output);
  const missing = [
    ...namedPaths(manifest).map((p) => join(ROOT, p)),
    ...namedPaths(engineManifest)
      .flatMap((p) => (p.includes('*') ? rulesetIds().map((id) => p.replace('*', id)) : [p]))
      .map((p) => join(ENGINE, p)),
  ].filter((p) => !existsSync(p));
  assert.deepEqual(missing, []);
});

test('plain Node imports arbiter by name from a file: dependency and plays a game (no tsx)', (t) => {
  assert.equal(buildOnce().status, 0, 'the build failed');
  const dir = consumer({
    'main.mjs': `
import { groundPackage, tictactoePackage, minesPackage, runMatch, makeAgents, PACKAGES, SeededRandom, act } from 'arbiter';

const result = await runMatch(groundPackage.ruleset, (n) => makeAgents(groundPackage, 'random', n), {
  seed: 7,
  pkg: groundPackage,
});
const rs = tictactoePackage.ruleset;
let state = rs.setup({}, 1);
const rnd = new SeededRandom(1);
while (!rs.outcome(state)) {
  const [p] = rs.pending(state);
  const menu = rs.legal(state, p.seat).actions;
  const r = act(rs, state, p.seat, menu[rnd.int(menu.length)]);
  if (!r.ok) throw new Error(r.error.reason);
  state = r.state;
}
console.log(JSON.stringify({
  resolved: import.meta.resolve('arbiter'),
  ids: PACKAGES.map((p) => p.ruleset.id),
  mines: minesPackage.ruleset.id,
  ground: result.outcome?.reason ?? null,
  tictactoe: rs.outcome(state).reason,
  tsx: Object.keys(process.env).filter((k) => k.startsWith('TSX')).length + String(process.execArgv),
}));
`,
  });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = { ...process.env, NODE_OPTIONS: '' };
  const r = spawnSync(process.execPath, ['main.mjs'], { cwd: dir, encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout);
  assert.match(got.resolved, /\/dist\/index\.js$/);
  assert.deepEqual(got.ids, rulesetIds());
  assert.equal(got.mines, 'mines');
  assert.equal(typeof got.ground, 'string');
  assert.match(got.tictactoe, /three in a row|board full/);
  assert.equal(got.tsx, '0', 'the consumer ran without tsx');
});

test('a TypeScript consumer type-checks against the emitted declarations', (t) => {
  assert.equal(buildOnce().status, 0, 'the build failed');
  const dir = consumer({
    'use.ts': `
import { groundPackage, act, type RulesetPackage, type Outcome } from 'arbiter';
import { duelPackage, type Ruleset } from 'arbiter';
const pkgs: RulesetPackage[] = [groundPackage, duelPackage];
const rs: Ruleset = pkgs[0].ruleset;
const s = rs.setup({}, 1);
const r = act(rs, s, 0, { type: 'nothing' });
export const reason: string = r.ok ? 'ok' : r.error.reason;
export const none: Outcome | null = rs.outcome(s);
// @ts-expect-error the declarations are precise enough to reject a wrong type
export const wrong: number = groundPackage.ruleset.id;
`,
  });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  assert.deepEqual(typeProblems(join(dir, 'use.ts')), []);
});

/** Size in bytes of every file under a folder. */
function sizeOf(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    total += st.isDirectory() ? sizeOf(p) : st.size;
  }
  return total;
}

let installed: string | undefined;
/** An empty project with the engine installed from the tarball `npm pack` makes (no network). */
function engineConsumer(): string {
  if (installed) return installed;
  assert.equal(buildOnce().status, 0, 'the build failed');
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-engine-consumer-'));
  const npm = (args: string[], cwd: string) => {
    const r = spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    assert.equal(r.status, 0, `npm ${args.join(' ')}: ${r.stdout}${r.stderr}`);
    return r.stdout;
  };
  const tarball = npm(['pack', '--silent', '--pack-destination', dir], ENGINE).trim().split('\n').pop() ?? '';
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'client', private: true, type: 'module' }));
  npm(['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', `./${tarball}`], dir);
  installed = dir;
  return dir;
}

test('@arbiter/engine installs from its tarball alone: no other package, under 2 MB', () => {
  const dir = engineConsumer();
  const modules = join(dir, 'node_modules');
  const names = readdirSync(modules).filter((n) => !n.startsWith('.'));
  assert.deepEqual(names, ['@arbiter']);
  assert.deepEqual(readdirSync(join(modules, '@arbiter')), ['engine']);
  const bytes = sizeOf(modules);
  console.log(`engine package: ${(bytes / 1024).toFixed(0)} KB installed`);
  assert.ok(bytes < 2 * 1024 * 1024, `installed size ${bytes} bytes`);
  const files = readdirSync(join(modules, '@arbiter/engine')).sort();
  assert.deepEqual(files, ['README.md', 'dist', 'package.json']);
});

test('a game client plays every shipped ruleset from the installed engine with plain Node', () => {
  const dir = engineConsumer();
  writeFileSync(
    join(dir, 'client.mjs'),
    `
import { PACKAGES, runMatch, BUILTIN_AGENTS } from '@arbiter/engine';
import { act } from '@arbiter/engine/kernel';
import { MatchEngine } from '@arbiter/engine/match';
import { minesPackage } from '@arbiter/engine/rulesets/mines';
const out = {};
for (const pkg of PACKAGES) {
  const r = await runMatch(pkg.ruleset, (n) => Array.from({ length: n }, () => BUILTIN_AGENTS.random({})), { seed: 5, pkg });
  out[pkg.ruleset.id] = r.outcome === null ? null : r.outcome.reason;
}
const rs = minesPackage.ruleset;
const s = rs.setup(rs.defaultConfig, 1);
const bad = act(rs, s, 0, { type: 'no-such-action' });
console.log(JSON.stringify({ out, refused: bad.ok ? null : bad.error.code, engine: typeof MatchEngine }));
`,
  );
  const r = spawnSync(process.execPath, ['client.mjs'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(got.out), rulesetIds());
  for (const [id, reason] of Object.entries(got.out)) assert.equal(typeof reason, 'string', `${id} ended`);
  assert.equal(got.refused, 'bad_request');
  assert.equal(got.engine, 'function');
});

test('a TypeScript game client type-checks against the installed engine declarations', () => {
  const dir = engineConsumer();
  writeFileSync(
    join(dir, 'client.ts'),
    `
import { act, type Ruleset, type Outcome } from '@arbiter/engine';
import type { GameEvent } from '@arbiter/engine/kernel';
import { duelPackage } from '@arbiter/engine/rulesets/duel';
const rs: Ruleset = duelPackage.ruleset;
const events: GameEvent[] = [];
const s = rs.setup({}, 1, events);
const r = act(rs, s, 0, { type: 'nothing' });
export const reason: string = r.ok ? 'ok' : r.error.reason;
export const none: Outcome | null = rs.outcome(s);
// @ts-expect-error the declarations are precise enough to reject a wrong type
export const wrong: number = duelPackage.ruleset.id;
`,
  );
  assert.deepEqual(typeProblems(join(dir, 'client.ts')), []);
});

test("the installed engine's dist bundles for a browser and plays the same games as the sources", async () => {
  const dir = engineConsumer();
  const dist = join(dir, 'node_modules/@arbiter/engine/dist');
  // the conformance game of browser-entry.ts, with its kernel and registry taken from the installed dist
  const r = await build({
    entryPoints: [join(ROOT, 'test/fixtures/browser-entry.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'engineBundle',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'installed-engine',
        setup(b) {
          b.onResolve({ filter: /packages\/engine\/src\/kernel\/index\.ts$/ }, () => ({
            path: join(dist, 'kernel.js'),
          }));
          b.onResolve({ filter: /packages\/engine\/src\/registry\.ts$/ }, () => ({ path: join(dist, 'index.js') }));
          b.onResolve({ filter: /^node:/ }, (a) => ({ errors: [{ text: `${a.importer} imports ${a.path}` }] }));
        },
      },
    ],
  });
  const code = r.outputFiles[0].text;
  // esbuild names each bundled module in a comment line
  assert.doesNotMatch(code, /^\s*\/\/ \S*packages\/engine\/src\//m, 'the bundle took the sources instead of the dist');
  assert.match(code, /^\s*\/\/ \S*@arbiter\/engine\/dist\/kernel\.js$/m);
  const ctx = createContext({ TextEncoder, TextDecoder });
  runInContext(`${code}\nglobalThis.api = engineBundle;`, ctx);
  const api = ctx.api as { ids: string[]; conformanceGame: typeof conformanceGame };
  assert.deepEqual([...api.ids], rulesetIds());
  for (const id of rulesetIds()) {
    const got = api.conformanceGame(id, 4);
    const want = conformanceGame(id, 4);
    assert.deepEqual([...got.problems], [], id);
    assert.deepEqual(
      { hash: got.hash, moves: got.moves, outcome: got.outcome },
      { hash: want.hash, moves: want.moves, outcome: want.outcome },
      `${id}: the installed dist and the sources played different games`,
    );
  }
});

test.after(() => {
  if (installed) rmSync(installed, { recursive: true, force: true });
});
