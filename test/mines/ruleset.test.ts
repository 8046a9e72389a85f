// The mines ruleset through the engine contract: install order of checks, config errors,
// menus accepted verbatim, secrets kept out of the view, the conformance checks on generated boards.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { act, canonicalJson, ArbiterError } from '../../packages/engine/src/kernel/index.ts';
import { checkInvariants } from '../../packages/engine/src/rulesets/mines/board/engine.ts';
import { buildBoard, fixture } from '../../packages/engine/src/rulesets/mines/fixtures.ts';
import { mines } from '../../packages/engine/src/rulesets/mines/index.ts';
import { badConfigs, determinism, fuzzInput, randomGames } from '../../src/runners/conformance.ts';

test('[U-M7, R3, EC2] several violations at once report the first in the order 1, 2a, 3, 2b, 4', () => {
  // a mine added to the spawn square without recomputing the digits breaks 1 and 3: 1 is reported
  const b = fixture('b_spawn');
  const i = 3 * 7 + 3;
  b.mines = b.mines.slice(0, i) + '1' + b.mines.slice(i + 1);
  assert.equal(checkInvariants(b), 'inv1_mine_in_spawn');
  // fog in the spawn square and a tampered digit: 2a before 3
  const f = buildBoard('x', 7, 7, [3, 2], [[5, 0]], [[3, 2]]);
  f.digits = '5' + f.digits.slice(1);
  assert.equal(checkInvariants(f), 'inv2a_variant_in_spawn');
  // fog inside R0 and a tampered digit: 3 before 2b
  const g = buildBoard('y', 7, 7, [3, 3], [[0, 0]], [[6, 6]]);
  assert.equal(checkInvariants(g), 'inv2b_variant_in_r0');
  g.digits = g.digits.slice(0, 10) + '7' + g.digits.slice(11);
  assert.equal(checkInvariants(g), 'inv3_digit_invariant');
});

test('[R3, EC2] bad configs are refused with clear bad_config errors', () => {
  const bad = [
    { board: 'nope' },
    { board: 'b_degenerate' },
    { board: 'b_spawn', width: 9 },
    { width: 3 },
    { mines: 0 },
    { width: 5, height: 5, mines: 16 },
    { fog: -1 },
    { spawn: [0, 0] },
    { economy: { dig_ap_cost: 'x' } },
    { economy: { bogus: 1 } },
    { max_rounds: 0 },
    { colour: 'red' },
  ];
  for (const c of bad) {
    assert.throws(
      () => mines.setup(c, 1),
      (e: unknown) => e instanceof ArbiterError && e.code === 'bad_config',
      JSON.stringify(c),
    );
  }
});

test('[R5, R9] every menu action is accepted verbatim, and a refused action leaves the state byte-identical', () => {
  let s = mines.setup({ board: 'b_fog' }, 3);
  for (let step = 0; step < 30 && mines.outcome(s) === null; step++) {
    const menu = mines.legal(s, 0);
    for (const a of menu.actions) assert.equal(mines.validate!(s, 0, a).ok, true, JSON.stringify(a));
    const before = canonicalJson(s);
    const r = act(mines, s, 0, { type: 'dig', cell: [0, 0] });
    if (!r.ok) assert.equal(canonicalJson(s), before);
    const pick = menu.actions[(step * 7) % menu.actions.length];
    const next = act(mines, s, 0, pick);
    assert.ok(next.ok);
    s = next.state;
  }
});

test('[R1, R2] conformance on generated boards: random games end, views keep secrets, same seed same events, fuzz refused', () => {
  const config = { width: 9, height: 9, mines: 12, fog: 3, max_rounds: 6 };
  assert.deepEqual(randomGames(mines, { games: 6, config }), []);
  assert.deepEqual(determinism(mines), []);
  assert.deepEqual(badConfigs(mines), []);
  assert.deepEqual(fuzzInput(mines, { runs: 150 }), []);
});

test('[R2] the view hides mines and concealed digits; the secrets list names them', () => {
  const s = mines.setup({}, 11);
  const view = canonicalJson(mines.view(s, 0));
  const secrets = mines.secrets!(s, 0);
  assert.ok(secrets.length > 2);
  assert.ok(!view.includes(s.a2.board!.mines));
  assert.ok(!view.includes(s.a2.board!.id), 'the generated id would reproduce the board');
});
