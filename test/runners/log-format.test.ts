// Log format 1 and its verifier (issue 11): each listed problem gets its own kind and exit code;
// streaming reads; the config actually used is recorded; hostile keys and files are refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { act, ArbiterError, type Json, type Ruleset } from '../../packages/engine/src/kernel/index.ts';
import { REGISTRY } from '../../packages/engine/src/registry.ts';
import { makeAgents } from '../../src/agents/resolve.ts';
import { runMatch } from '../../packages/engine/src/engine/run-match.ts';
import { canonicalInput, logLines, MatchRecorder, type LogEntry } from '../../packages/engine/src/engine/log.ts';
import { VERIFY_EXIT, verifyLogFile, verifyLogText } from '../../src/runners/replay.ts';
import { buildConfig, readJsonFile } from '../../src/cli/core/config.ts';
import { parseScenario } from '../../src/runners/scenario-file.ts';
import { cli } from '../support/cli.ts';

const resolve = (id: string) => REGISTRY.get(id)?.ruleset as Ruleset<unknown> | undefined;
const verify = (lines: string[], partial = false) => verifyLogText(lines.join('\n') + '\n', { resolve, partial });
const tmp = mkdtempSync(join(tmpdir(), 'arbiter-logs-'));

async function record(id: string, seed: number, config: Json = {}): Promise<string[]> {
  const pkg = REGISTRY.get(id)!;
  return logLines(await runMatch(pkg.ruleset, (n) => makeAgents(pkg, 'random', n), { seed, config }));
}
const edit = (line: string, f: (o: Record<string, Json>) => void) => {
  const o = JSON.parse(line) as Record<string, Json>;
  f(o);
  return JSON.stringify(o);
};

test('[LOG-F01] every listed problem is refused with its own kind, the first one wins', async () => {
  const lines = await record('tictactoe', 4);
  assert.equal(verify(lines).status, 'verified');
  const cases: [string, string[], string, RegExp][] = [
    [
      'truncated (no footer)',
      lines.slice(0, -1),
      'incomplete',
      new RegExp(`^incomplete: ${lines.length - 2} submissions, no footer$`),
    ],
    ['header only', lines.slice(0, 1), 'incomplete', /^incomplete: 0 submissions, no footer$/],
    [
      'a submission dropped',
      [...lines.slice(0, 1), ...lines.slice(2)],
      'malformed',
      /seq 2 out of order \(expected 1\)/,
    ],
    [
      'last submission dropped',
      [...lines.slice(0, -2), lines[lines.length - 1]],
      'counts',
      /the footer counts \d+ submissions; the log has \d+/,
    ],
    [
      'event count edited',
      [...lines.slice(0, -1), edit(lines[lines.length - 1], (o) => void (o.events = (o.events as number) + 1))],
      'counts',
      /footer counts \d+ events/,
    ],
    [
      'unknown engine',
      [edit(lines[0], (o) => void (o.engine = 'arbiter 9.9.9')), ...lines.slice(1)],
      'version',
      /engine "arbiter 9\.9\.9", which this arbiter cannot verify/,
    ],
    [
      'unknown ruleset version',
      [edit(lines[0], (o) => void (o.version = 'tictactoe-0')), ...lines.slice(1)],
      'version',
      /written by tictactoe version "tictactoe-0"; this arbiter has/,
    ],
    [
      'unknown ruleset',
      [edit(lines[0], (o) => void (o.ruleset = 'chess')), ...lines.slice(1)],
      'version',
      /ruleset "chess" is not one this arbiter has/,
    ],
    ['no format', [edit(lines[0], (o) => void delete o.format), ...lines.slice(1)], 'version', /no "format"/],
    [
      'unknown field',
      [lines[0], edit(lines[1], (o) => void (o.note = 'hi')), ...lines.slice(2)],
      'malformed',
      /unknown field "note" in the submission/,
    ],
    [
      'unknown footer field',
      [...lines.slice(0, -1), edit(lines[lines.length - 1], (o) => void (o.signed = true))],
      'malformed',
      /unknown field "signed" in the footer/,
    ],
    ['blank line', [lines[0], '', ...lines.slice(1)], 'malformed', /line 2: a blank line/],
    ['junk line', [...lines.slice(0, 2), 'hello', ...lines.slice(2)], 'malformed', /line 3: not JSON/],
    ['content after the footer', [...lines, lines[1]], 'malformed', /content after the footer/],
    ['ignored seed changed', [edit(lines[0], (o) => void (o.seed = 99)), ...lines.slice(1)], 'digest', /log hash/],
    [
      'agents renamed',
      [edit(lines[0], (o) => void (o.agents = ['first', 'first'])), ...lines.slice(1)],
      'digest',
      /log hash/,
    ],
    [
      'an event edited',
      [lines[0], edit(lines[1], (o) => void ((o.events as Record<string, Json>[])[0].cell = 9)), ...lines.slice(2)],
      'diverged',
      /submission 1: event 0 differs/,
    ],
    [
      'prototype key',
      [lines[0], lines[1].replace('{', '{"__proto__":{"x":1},'), ...lines.slice(2)],
      'malformed',
      /"__proto__" is not allowed/,
    ],
    [
      'number too large',
      [lines[0], lines[1].replace('"seq":1', '"seq":1e999'), ...lines.slice(2)],
      'malformed',
      /too large for JSON/,
    ],
  ];
  for (const [name, tampered, kind, message] of cases) {
    const r = verify(tampered);
    assert.equal(r.status, kind, `${name}: ${r.message}`);
    assert.match(r.message, message, name);
    assert.notEqual(VERIFY_EXIT[r.status], 0, name);
  }
  // --partial accepts a log of a match still running, and says so
  const p = verify(lines.slice(0, -1), true);
  assert.equal(p.status, 'partial');
  assert.match(
    p.message,
    /^partial: \d+ submissions and \d+ events verified, no footer yet \(a match still running\)$/,
  );
  const cut = verifyLogText(lines.slice(0, -1).join('\n') + '\n' + lines[lines.length - 1].slice(0, 20), {
    resolve,
    partial: true,
  });
  assert.equal(cut.status, 'partial');
  assert.match(cut.message, /an unfinished last line was ignored/);
  assert.equal(verifyLogText(lines.join('\n'), { resolve }).status, 'verified', 'a missing final newline is fine');
  // the exit codes are distinct per kind
  const codes = Object.entries(VERIFY_EXIT)
    .filter(([k]) => k !== 'partial')
    .map(([, c]) => c);
  assert.equal(new Set(codes).size, codes.length);
});

test('[LOG-F02] refused and defaulted submissions: recorded events and rejections must match re-execution', () => {
  const rs = REGISTRY.get('tictactoe')!.ruleset as Ruleset<unknown>;
  let state = rs.setup({}, 1);
  const rec = new MatchRecorder({ ruleset: rs.id, version: rs.version, seed: 1, config: {}, setupEvents: [] });
  const entries: LogEntry[] = [];
  const bad = canonicalInput({ cell: 42 });
  const r1 = act(rs, state, 0, bad);
  assert.equal(r1.ok, false);
  if (!r1.ok) entries.push(rec.record({ seat: 0, input: bad, result: 'rejected', events: [], error: r1.error }));
  const r2 = act(rs, state, 0, { type: 'mark', cell: 4 });
  assert.ok(r2.ok);
  if (r2.ok) {
    state = r2.state;
    entries.push(
      rec.record({
        seat: 0,
        input: { type: 'mark', cell: 4 },
        result: 'defaulted',
        events: r2.events,
        default: { reason: 'invalid_json', request: 2, raw: '{"cell":' },
      }),
    );
  }
  const lines = logLines({ header: rec.header, entries, footer: rec.footer(rs.outcome(state)) });
  assert.equal(verify(lines).status, 'verified', verify(lines).message);
  const withEvents = [
    lines[0],
    edit(lines[1], (o) => void (o.events = [{ type: 'marked', seat: 0, cell: 42 }])),
    ...lines.slice(2),
  ];
  assert.match(verify(withEvents).message, /submission 1: events of a refused submission differs/);
  const otherError = [
    lines[0],
    edit(lines[1], (o) => void ((o.error as Record<string, Json>).reason = 'nope')),
    ...lines.slice(2),
  ];
  assert.match(verify(otherError).message, /submission 1: rejection differs/);
  const badReason = [
    lines[0],
    lines[1],
    edit(lines[2], (o) => void ((o.default as Record<string, Json>).reason = 'bored')),
    lines[3],
  ];
  assert.match(
    verify(badReason).message,
    /default.reason must be one of timeout, invalid_json, refused, oversize, exited, stale/,
  );
  const extra = [
    lines[0],
    lines[1],
    edit(lines[2], (o) => void ((o.default as Record<string, Json>).model = 'x')),
    lines[3],
  ];
  assert.match(verify(extra).message, /unknown field "model" in the default record/);
  const accepted = [lines[0], lines[1], edit(lines[2], (o) => void (o.result = 'accepted')), lines[3]];
  assert.equal(verify(accepted).status, 'malformed');
});

test('[LOG-F03] the log records the config actually used, so a --set config replays; prototype keys in configs are refused', async () => {
  const config = buildConfig(REGISTRY.get('ground')!, { set: ['players=3'] });
  const lines = await record('ground', 2, config);
  assert.deepEqual(JSON.parse(lines[0]).config, { players: 3 });
  assert.equal(verify(lines).status, 'verified');
  for (const opts of [
    { set: ['__proto__={"players":6}'] },
    { set: ['constructor=1'] },
    { set: ['x={"__proto__":{"players":6}}'] },
    { config: '{"__proto__":{"players":6}}' },
    { config: '{"a":{"prototype":1}}' },
  ]) {
    assert.throws(
      () => buildConfig(REGISTRY.get('ground')!, opts),
      (e: unknown) => e instanceof ArbiterError && e.code === 'bad_config' && /not allowed/.test(e.message),
      JSON.stringify(opts),
    );
  }
  assert.equal(({} as Record<string, unknown>).players, undefined);
  const pkg = REGISTRY.get('ground')!;
  const proto = JSON.parse('{"__proto__":{"players":6}}') as Json;
  await assert.rejects(
    runMatch(pkg.ruleset, (n) => makeAgents(pkg, 'random', n), { seed: 1, config: proto }),
    (e: unknown) => e instanceof ArbiterError && e.code === 'bad_config',
  );
  // json files (an edition, a --config file): size limit before reading, prototype keys refused
  const big = join(tmp, 'big.json');
  const fd = openSync(big, 'w');
  ftruncateSync(fd, 64 * 1024 * 1024);
  closeSync(fd);
  assert.throws(
    () => readJsonFile(big, '--edition'),
    (e: unknown) => e instanceof ArbiterError && e.code === 'too_large' && /over the limit/.test(e.message),
  );
  const ed = join(tmp, 'ed.json');
  writeFileSync(ed, '{"cards":[{"constructor":{"prototype":{}}}]}');
  assert.throws(
    () => readJsonFile(ed, '--edition'),
    (e: unknown) => e instanceof ArbiterError && /cards\[0\]\.constructor/.test(e.message),
  );
  assert.throws(
    () => readJsonFile(join(tmp, 'none.json')),
    (e: unknown) => e instanceof ArbiterError && e.code === 'not_found',
  );
});

test('[LOG-F04] reading streams: a long log verifies, a huge line is too_large (not not_found), a missing file is not_found', async () => {
  const rs = REGISTRY.get('tictactoe')!.ruleset as Ruleset<unknown>;
  const state = rs.setup({}, 1);
  const rec = new MatchRecorder({ ruleset: rs.id, version: rs.version, seed: 1, config: {}, setupEvents: [] });
  const file = join(tmp, 'long.jsonl');
  const fd = openSync(file, 'w');
  const input = canonicalInput({ cell: 'x'.repeat(400) });
  const r = act(rs, state, 0, input);
  assert.equal(r.ok, false);
  const n = 20_000;
  const chunk: string[] = [JSON.stringify(rec.header)];
  for (let i = 0; i < n; i++) {
    if (!r.ok)
      chunk.push(JSON.stringify(rec.record({ seat: 0, input, result: 'rejected', events: [], error: r.error })));
    if (chunk.length >= 1000) writeFileSync(fd, chunk.splice(0).join('\n') + '\n');
  }
  chunk.push(JSON.stringify(rec.footer(null)));
  writeFileSync(fd, chunk.join('\n') + '\n');
  closeSync(fd);
  const ok = await verifyLogFile(file, { resolve });
  assert.equal(ok.status, 'verified', ok.message);
  assert.equal(ok.submissions, n);
  const huge = join(tmp, 'huge.jsonl');
  const hfd = openSync(huge, 'w');
  writeFileSync(hfd, '{"format":1,');
  ftruncateSync(hfd, 80 * 1024 * 1024);
  closeSync(hfd);
  const tl = await verifyLogFile(huge, { resolve });
  assert.equal(tl.status, 'too_large');
  assert.match(tl.message, /line 1: longer than the line limit/);
  await assert.rejects(
    verifyLogFile(join(tmp, 'missing.jsonl'), { resolve }),
    (e: unknown) => e instanceof ArbiterError && e.code === 'not_found',
  );
});

test('[LOG-F05] scenario files: prototype paths and keys, unknown tags, binary values and oversize files are refused before anything runs', () => {
  const base = 'id: t\nruleset: tictactoe\ncovers: [TT-R01]\n';
  const bad: [string, RegExp][] = [
    [
      base + 'setup:\n  state:\n    __proto__.x: 1\n',
      /setup.state path "__proto__.x": the key "__proto__" is not allowed/,
    ],
    [base + 'setup:\n  state:\n    board.constructor.prototype: 1\n', /the key "constructor" is not allowed/],
    [base + 'setup:\n  config:\n    __proto__: {players: 6}\n', /the key "setup.config.__proto__" is not allowed/],
    [base + 'expect:\n  state:\n    a.prototype: 1\n', /expect.state path "a.prototype"/],
    [base + 'title: !foo bar\n', /Unresolved tag: !foo|the tag .* is not allowed/],
    [base + 'title: !!binary aGVsbG8=\n', /tag:yaml.org,2002:binary is not allowed/],
    [base + 'title: !!js/function "f"\n', /YAML error/],
    [base + 'title: "' + 'x'.repeat(1024 * 1024) + '"\n', /over the scenario limit/],
  ];
  for (const [text, why] of bad) {
    assert.throws(
      () => parseScenario(text, 't.yaml'),
      (e: unknown) => e instanceof ArbiterError && why.test(e.message),
      text.slice(0, 120),
    );
  }
  assert.equal(({} as Record<string, unknown>).x, undefined, 'no prototype was written');
  assert.equal(parseScenario(base, 't.yaml').id, 't');
});

test('[LOG-F06] CLI: replay exit codes for incomplete and --partial; unwritable --log and prototype --set fail before the match', async () => {
  const log = join(tmp, 'cli.jsonl');
  const played = await cli(['play', 'tictactoe', '--seed', '2', '--quiet', '--log', log]);
  assert.equal(played.code, 0, played.err);
  const lines = spawnSync('head', ['-n', '-1', log], { encoding: 'utf8' }).stdout;
  const cut = join(tmp, 'cut.jsonl');
  writeFileSync(cut, lines);
  const inc = await cli(['replay', cut, '--verify']);
  assert.equal(inc.code, 3);
  assert.match(inc.err, /incomplete: \d+ submissions, no footer/);
  const part = await cli(['replay', cut, '--partial']);
  assert.equal(part.code, 0, part.err);
  assert.match(part.out, /partial: .*a match still running/);
  const nolog = await cli(['play', 'tictactoe', '--log', join(tmp, 'no', 'such', 'dir', 'x.jsonl')]);
  assert.equal(nolog.code, 2);
  assert.match(nolog.err, /cannot write --log .*ENOENT/);
  assert.equal(nolog.out, '', 'no move was played');
  const proto = await cli(['play', 'ground', '--set', '__proto__={"players":6}', '--quiet']);
  assert.equal(proto.code, 2);
  assert.match(proto.err, /bad_config: --set: the key "__proto__" is not allowed/);
  assert.equal(existsSync(join(tmp, 'no')), false);
});
