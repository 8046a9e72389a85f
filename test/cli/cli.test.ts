// The CLI as a user meets it: exit codes, clean errors, in-process through run(argv, io); a few
// smoke tests run the built `arbiter` binary as separate processes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../support/cli.ts';

const proc = (args: string[], input?: string) => {
  const r = spawnSync(process.execPath, ['bin/arbiter.js', ...args], {
    encoding: 'utf8',
    input,
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

test('play --json twice in two processes gives byte-identical output', async () => {
  // the built binary in a process of its own, and the same command line in this one
  const a = proc(['play', 'tictactoe', '--seed', '1', '--json']);
  const b = await cli(['play', 'tictactoe', '--seed', '1', '--json']);
  assert.equal(a.code, 0, a.err);
  assert.equal(a.out, b.out);
  const lines = a.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lines[0].ruleset, 'tictactoe');
  assert.equal(lines[lines.length - 1].end, true);
  assert.notEqual((await cli(['play', 'tictactoe', '--seed', '2', '--json'])).out, a.out);
});

test('[CLI-STARTUP] the built `arbiter rulesets` prints its table, the listing the packages give', async () => {
  // the build writes the table so the verb does not evaluate every ruleset to print it
  assert.ok(existsSync('build/cli/rulesets.json'), 'the build has no rulesets table');
  const built = proc(['rulesets', '--json']);
  assert.equal(built.code, 0, built.err);
  assert.deepEqual(JSON.parse(built.out), JSON.parse((await cli(['rulesets', '--json'])).out));
});

test('replay --verify passes on a recorded log and fails clearly on a tampered one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-'));
  const log = join(dir, 'm.jsonl');
  assert.equal((await cli(['play', 'tictactoe', '--seed', '4', '--quiet', '--log', log])).code, 0);
  const ok = await cli(['replay', log, '--verify']);
  assert.equal(ok.code, 0, ok.err);
  assert.match(ok.out, /verified/);
  const lines = readFileSync(log, 'utf8').trim().split('\n');
  const e = JSON.parse(lines[3]);
  e.events[0].cell = (e.events[0].cell + 3) % 9;
  lines[3] = JSON.stringify(e);
  writeFileSync(log, lines.join('\n') + '\n');
  const bad = await cli(['replay', log, '--verify']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /diverged: line 4: submission 3: event 0 differs/);
  writeFileSync(log, 'garbage\n');
  const corrupt = await cli(['replay', log, '--verify']);
  assert.equal(corrupt.code, 6);
  assert.match(corrupt.err, /malformed: line 1: not JSON/);
});

test('user mistakes print one typed line, no stack trace, exit 2', async () => {
  for (const args of [
    ['play', 'nope'],
    ['play', 'tictactoe', '--seed', 'x'],
    ['sim', 'tictactoe', '--games', '0'],
    ['play', 'tictactoe', '--config', '{bad'],
    ['replay', '/no/such/file'],
  ]) {
    const r = await cli(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, /^arbiter: \w+: /, args.join(' '));
    assert.doesNotMatch(r.err, /\n\s+at /, 'no stack trace');
  }
});

test('coverage --json maps every tictactoe rule to its scenarios', async () => {
  const r = await cli(['coverage', 'tictactoe', '--json']);
  assert.equal(r.code, 0, r.err);
  const cov = JSON.parse(r.out);
  assert.deepEqual(Object.keys(cov.tictactoe).sort(), ['TTT-1', 'TTT-2', 'TTT-3', 'TTT-4', 'TTT-5', 'TTT-6']);
  for (const ids of Object.values(cov.tictactoe) as string[][]) assert.ok(ids.length > 0);
});

test('drive as a subprocess survives garbage and answers in order', () => {
  const input = [
    '{"id":1,"op":"new","ruleset":"tictactoe","seed":7}',
    'garbage',
    '{"id":3,"op":"act","seat":0,"action":{"type":"mark","cell":4}}',
    '{"id":4,"op":"outcome"}',
    '',
  ].join('\n');
  const r = proc(['drive'], input);
  assert.equal(r.code, 0);
  const res = r.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    res.map((x) => x.ok),
    [true, false, true, true],
  );
  assert.equal(res[1].error.code, 'bad_request');
  assert.equal(res[2].id, 3);
});

test('sim on the worker pool works from any working directory (the workers find tsx from the package)', () => {
  const bin = join(process.cwd(), 'bin/arbiter.js');
  const run = (cwd: string) =>
    spawnSync(
      process.execPath,
      [bin, 'sim', 'tictactoe', '--games', '2500', '--threads', '2', '--json', '--no-progress'],
      {
        cwd,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
  const elsewhere = run(mkdtempSync(join(tmpdir(), 'arbiter-cwd-')));
  assert.equal(elsewhere.status, 0, elsewhere.stderr);
  const report = JSON.parse(elsewhere.stdout);
  assert.equal(report.games, 2500);
  assert.equal(report.threads, 2);
  // the same seeds give the same report wherever it runs
  const here = JSON.parse(run(process.cwd()).stdout);
  assert.deepEqual({ ...report, wall_ms: 0, games_per_s: 0 }, { ...here, wall_ms: 0, games_per_s: 0 });
});
