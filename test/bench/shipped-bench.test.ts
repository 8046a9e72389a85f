// The shipped `bench` verb needs no devDependency: the code it loads never requires the peer
// (boardgame.io), the peer cases load only once the package resolves, and a missing peer costs one
// `skipped:` line instead of a crash or an error row.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { isInstalled, PEERS, peerCases } from '../../bench/index.ts';
import { cli } from '../support/cli.ts';

const ROOT = process.cwd();

/** Files reachable from `entry` through static imports (dynamic imports are load-on-demand). */
function staticClosure(entry: string): string[] {
  const seen = new Set<string>();
  const todo = [resolve(ROOT, entry)];
  const STATIC = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"](\.[^'"]+)['"]|^\s*import\s+['"](\.[^'"]+)['"]/gm;
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const m of code.matchAll(STATIC)) todo.push(resolve(dirname(file), m[1] ?? m[2]));
  }
  return [...seen].map((f) => relative(ROOT, f));
}

test('the bench verb and bench/index.ts load no peer code at import time', () => {
  for (const entry of ['src/cli/core/bench.ts', 'bench/index.ts']) {
    const files = staticClosure(entry);
    assert.ok(files.length > 5, `${entry}: the walk found its imports (${files.length})`);
    for (const f of files) {
      assert.ok(!f.startsWith('bench/peers/'), `${entry} reaches ${f} statically`);
      const text = readFileSync(join(ROOT, f), 'utf8');
      assert.doesNotMatch(text, /(?:require|import)\s*\(\s*['"]boardgame\.io/, `${f} loads boardgame.io`);
      assert.doesNotMatch(text, /from\s+['"]boardgame\.io/, `${f} imports boardgame.io`);
    }
  }
});

test('a missing peer is one skipped line and no cases; unselected peers say nothing', async () => {
  const lines: string[] = [];
  const got = await peerCases(
    () => true,
    (l) => lines.push(l),
    () => false,
  );
  assert.deepEqual(got, []);
  assert.equal(lines.length, PEERS.length);
  assert.match(
    lines[0],
    /^skipped: boardgame\.io 0\.50\.2 not installed \(peer cases tictactoe\/boardgame\.io, tictactoe\/boardgame\.io-bot;/,
  );

  const quiet: string[] = [];
  assert.deepEqual(
    await peerCases(
      (c) => c.group === 'mines',
      (l) => quiet.push(l),
      () => false,
    ),
    [],
  );
  assert.deepEqual(quiet, []);
});

test('an installed peer contributes exactly the selected cases', async (t) => {
  if (!isInstalled('boardgame.io/client')) {
    t.skip('skipped: boardgame.io not installed');
    return;
  }
  const got = await peerCases(
    (c) => c.name.endsWith('-bot'),
    () => assert.fail('no skip line when the peer is installed'),
  );
  assert.deepEqual(
    got.map((c) => c.name),
    ['tictactoe/boardgame.io-bot'],
  );
});

test('arbiter bench --list names the peer cases with their peer, without running them', async () => {
  const r = await cli(['bench', '--list']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /tictactoe\s+tictactoe\/engine\n/);
  assert.match(r.out, /tictactoe\s+tictactoe\/boardgame\.io-bot {2}\(peer: boardgame\.io 0\.50\.2\)/);
});

test('`arbiter bench server` runs the server benchmark script in its own process (here with no targets)', () => {
  const r = spawnSync(
    process.execPath,
    ['bin/arbiter.js', 'bench', 'server', '--', '--targets', 'none', '--runs', '1'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^server bench: tic-tac-toe/m);
  assert.match(r.stdout, /command: node --import tsx bench\/server.ts --targets none --runs 1/);
});

test('bench/server.ts refuses a bad option in one typed line and exit 2, before starting anything', () => {
  for (const [bad, said] of [
    [
      ['--arbiter-tree', '/nonexistent-arbiter-tree'],
      /--arbiter-tree \/nonexistent-arbiter-tree: no bin\/arbiter\.js there/,
    ],
    [['--sockets', 'sometimes'], /--sockets is per-match or kept, not sometimes/],
  ] as const) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/server.ts', '--targets', 'none', ...bad], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^bench\/server\.ts: bad_request: /);
    assert.match(r.stderr, said);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    assert.equal(r.stdout, '', 'nothing ran');
  }
});

test('`arbiter bench server --json` is refused with a typed reason (its options go after --)', async () => {
  const r = await cli(['bench', 'server', '--json']);
  assert.equal(r.code, 2);
  assert.match(r.err, /bad_request: bench server takes its own options after "--"/);
});
