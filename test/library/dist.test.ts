// `arbiter` as a library: tsdown builds dist/ (ESM with declarations) once per test run, and a
// project outside the repository that depends on it through a `file:` link imports the public
// entry points by package name with plain Node (no tsx), plays a game and type-checks against the
// declarations. Every path package.json names (main, types, exports) must be a built file.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { rulesetIds } from '../../src/registry.ts';

const ROOT = process.cwd();
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** Every file path package.json points at for consumers. */
function namedPaths(): string[] {
  const out = [manifest.main, manifest.types];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  walk(manifest.exports);
  return out;
}

let built: { status: number | null; output: string } | undefined;
function buildOnce(): { status: number | null; output: string } {
  if (!built) {
    const cli = join(ROOT, 'node_modules/tsdown/dist/run.mjs');
    // a worktree whose node_modules predates the lock file's tsdown says so, instead of a spawn error
    if (!existsSync(cli)) return { status: 1, output: 'tsdown is not installed: run `npm ci` (the lock pins 0.21.10)' };
    const r = spawnSync(process.execPath, [cli, '--log-level', 'warn'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    built = { status: r.status, output: `${r.stdout}${r.stderr}` };
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

test('package.json names ESM entry points under dist/, one per public module', () => {
  assert.equal(manifest.type, 'module');
  assert.equal(manifest.main, './dist/index.js');
  assert.equal(manifest.types, './dist/index.d.ts');
  assert.deepEqual(Object.keys(manifest.exports), ['.', './kernel', './rulesets/*', './package.json']);
  for (const p of namedPaths()) assert.match(p, /^\.\/(dist\/|package\.json$)/, p);
  assert.equal(manifest.devDependencies.tsdown, '0.21.10', 'tsdown is pinned exactly');
});

test('tsdown builds dist/ and every path package.json names exists, with a subpath per registered ruleset', () => {
  const r = buildOnce();
  assert.equal(r.status, 0, r.output);
  const missing = namedPaths()
    .flatMap((p) => (p.includes('*') ? rulesetIds().map((id) => p.replace('*', id)) : [p]))
    .filter((p) => !existsSync(join(ROOT, p)));
  assert.deepEqual(missing, []);
});

test('plain Node imports arbiter by name from a file: dependency and plays a game (no tsx)', (t) => {
  assert.equal(buildOnce().status, 0, 'the build failed');
  const dir = consumer({
    'main.mjs': `
import { groundPackage, tictactoePackage, runMatch, makeAgents, PACKAGES } from 'arbiter';
import { SeededRandom, act } from 'arbiter/kernel';
import { minesPackage } from 'arbiter/rulesets/mines';

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
import type { Ruleset } from 'arbiter/kernel';
import { duelPackage } from 'arbiter/rulesets/duel';
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
  const program = ts.createProgram([join(dir, 'use.ts')], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const problems = ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  assert.deepEqual(problems, []);
});
