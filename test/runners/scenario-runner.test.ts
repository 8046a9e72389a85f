import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArbiterError } from '../../packages/engine/src/kernel/index.ts';
import { parseScenario } from '../../src/runners/scenario-file.ts';
import { runScenario } from '../../src/runners/scenario.ts';
import { tictactoe } from '../../packages/engine/src/rulesets/tictactoe/index.ts';
import { bnc } from '../../packages/engine/src/rulesets/bnc/index.ts';
import { findSubsequence, partialMatch } from '../../src/runners/match-partial.ts';

const run = (yaml: string) =>
  runScenario({ file: 'inline.yaml', scenario: parseScenario(yaml, 'inline.yaml') }, tictactoe);

test('a wrong expectation fails with the path, expected and actual', () => {
  const r = run(
    `id: x\nruleset: tictactoe\ncovers: [TTT-1]\nsteps:\n  - { seat: 0, action: { type: mark, cell: 4 } }\nexpect:\n  state: { board.4: 1 }\n`,
  );
  assert.equal(r.ok, false);
  assert.match(r.failure!, /state board\.4: expected 1, actual 0/);
});

test('an expected rejection that is accepted fails; a wrong code fails', () => {
  assert.match(
    run(
      `id: x\nruleset: tictactoe\ncovers: [TTT-3]\nsteps:\n  - { seat: 0, action: { type: mark, cell: 4 }, reject: illegal }\n`,
    ).failure!,
    /expected rejection "illegal", but it was accepted/,
  );
  assert.match(
    run(
      `id: x\nruleset: tictactoe\ncovers: [TTT-3]\nsteps:\n  - { seat: 0, action: { type: mark, cell: 40 }, reject: illegal }\n`,
    ).failure!,
    /got "bad_request"/,
  );
});

test('events must appear in order', () => {
  const ok = run(
    `id: x\nruleset: tictactoe\ncovers: [TTT-1]\nsteps:\n  - { seat: 0, action: { type: mark, cell: 0 } }\n  - { seat: 1, action: { type: mark, cell: 1 } }\nexpect:\n  events: [{ cell: 0 }, { cell: 1 }]\n`,
  );
  assert.equal(ok.ok, true);
  const bad = run(
    `id: x\nruleset: tictactoe\ncovers: [TTT-1]\nsteps:\n  - { seat: 0, action: { type: mark, cell: 0 } }\n  - { seat: 1, action: { type: mark, cell: 1 } }\nexpect:\n  events: [{ cell: 1 }, { cell: 0 }]\n`,
  );
  assert.equal(bad.ok, false);
});

test('unknown rule ids, unknown fields and provisional scenarios without U-items are refused', () => {
  assert.match(run(`id: x\nruleset: tictactoe\ncovers: [TTT-99]\n`).failure!, /not a rule id/);
  assert.throws(
    () => parseScenario(`id: x\nruleset: tictactoe\ncovers: [TTT-1]\nstep: []\n`, 'f.yaml'),
    (e: unknown) => e instanceof ArbiterError && /f\.yaml:4:\d+: step: Unrecognized key/.test(e.message),
  );
  assert.throws(
    () => parseScenario(`id: x\nruleset: tictactoe\nprovisional: true\n`, 'f.yaml'),
    /provisional scenario must name/,
  );
  assert.throws(() => parseScenario(`id: [\n`, 'f.yaml'), /YAML error/);
});

test('state overrides must name existing paths', () => {
  assert.match(
    run(`id: x\nruleset: tictactoe\ncovers: [TTT-1]\nsetup:\n  state: { nope.deeper: 1 }\n`).failure!,
    /does not exist/,
  );
});

test('partial matching and subsequences', () => {
  assert.equal(partialMatch({ a: 1 }, { a: 1, b: 2 }), null);
  assert.notEqual(partialMatch([1], [1, 2]), null);
  assert.equal(partialMatch('$absent', undefined), null);
  assert.deepEqual(findSubsequence([1, 3], [1, 2, 3]), { ok: true, missing: -1 });
  assert.deepEqual(findSubsequence([3, 1], [1, 2, 3]), { ok: false, missing: 1 });
});

test('a scenario run against a ruleset other than the one it names fails and says so', () => {
  const r = runScenario(
    {
      file: 'inline.yaml',
      scenario: parseScenario(`id: x\nruleset: mines\ncovers: [MN-1]\nsteps: []\n`, 'inline.yaml'),
    },
    tictactoe,
  );
  assert.equal(r.ok, false);
  assert.match(r.failure!, /names ruleset "mines", but it was run against tictactoe/);
});

test('[SCN-STATE] a hand-written state missing a field fails with a typed error naming its path, not a TypeError', () => {
  // a bnc contestant written without `searched` used to crash in cloneContestant
  const yaml = [
    'id: x',
    'ruleset: bnc',
    'covers: [BNC-E01]',
    'setup:',
    '  config: { contestants: 2 }',
    '  state:',
    '    contestants.0: { seat: 0, zone: 4, health: 10, items: [], status: active, at: null, route: null,',
    '      reputation: 0, guild: null, deposited: 0, withdrawn: 0, known: [], submitted: null }',
    'steps:',
    '  - { seat: 0, action: { type: wait } }',
    '  - { seat: 1, action: { type: wait } }',
  ].join('\n');
  const r = runScenario({ file: 'inline.yaml', scenario: parseScenario(yaml, 'inline.yaml') }, bnc);
  assert.equal(r.ok, false);
  assert.doesNotMatch(r.failure!, /TypeError|crash/);
  assert.match(r.failure!, /^bad_config: setup\.state: contestants\.0\.searched: /);
  // a field of the wrong type is named the same way
  const wrong = yaml.replace('zone: 4', 'zone: "4"');
  const w = runScenario({ file: 'inline.yaml', scenario: parseScenario(wrong, 'inline.yaml') }, bnc);
  assert.match(w.failure!, /^bad_config: setup\.state: contestants\.0\.zone: /);
});
