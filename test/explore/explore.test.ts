// The generic explorer on rulesets other than duel: exact reachable-state counts, deadlock and
// invariant detection with the shortest trace, goals, and bounds.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tictactoe } from '../../packages/engine/src/rulesets/tictactoe/index.ts';
import { explore, formatReport } from '../../src/runners/explore.ts';

test('tic-tac-toe has 5478 reachable positions including the start', () => {
  const r = explore(tictactoe, { validateMenus: true });
  assert.equal(r.states, 5478);
  assert.equal(r.complete, true);
  assert.equal(r.depth, 9);
  assert.equal(r.terminal, 958); // 626 X wins + 316 O wins + 16 full-board draws
  assert.equal(r.transitions, 16167);
  assert.deepEqual(r.violations, []);
});

test('exact keys and hashed keys count the same states', () => {
  assert.equal(explore(tictactoe, { exactKeys: true }).states, 5478);
});

test('a goal is reported with the depth and a replayable trace of its first (shallowest) hit', () => {
  const r = explore(tictactoe, {
    goals: [
      {
        id: 'o_wins',
        description: 'O completes a line',
        hit: (evs) => evs.some((e) => e.type === 'game_over' && e.winner === 1),
      },
      { id: 'never', description: 'an event that does not exist', hit: (evs) => evs.some((e) => e.type === 'nope') },
    ],
  });
  const [o, never] = r.goals;
  assert.equal(o.reached, true);
  assert.equal(o.depth, 6); // O's third mark is the sixth move
  assert.equal(o.trace!.length, 6);
  assert.equal(never.reached, false);
  assert.match(formatReport(r), /MISSED {2}never/);
});

test('an invariant violation comes with the shortest trace to it', () => {
  // a broken invariant: "no X in a corner" fails first after one move
  const broken: typeof tictactoe = {
    ...tictactoe,
    invariants: (s) => ([0, 2, 6, 8].some((c) => s.board[c] === 0) ? ['X in a corner'] : []),
  };
  const r = explore(broken);
  assert.equal(r.violations.length, 1);
  assert.equal(r.violations[0].kind, 'invariant');
  assert.equal(r.violations[0].trace.length, 1);
  assert.ok([0, 2, 6, 8].includes((r.violations[0].trace[0].action as { cell: number }).cell));
  assert.equal(r.complete, false);
});

test('a state with no outcome and no move is a deadlock', () => {
  // after the fourth mark the broken ruleset stops asking anybody
  const stuck: typeof tictactoe = {
    ...tictactoe,
    pending: (s) => (s.moves >= 4 && s.result === -1 ? [] : tictactoe.pending(s)),
  };
  const r = explore(stuck);
  assert.equal(r.violations[0].kind, 'deadlock');
  assert.equal(r.violations[0].depth, 4);
  assert.equal(r.violations[0].trace.length, 4);
});

test('a per-transition contract failure names the contract and gives the trace including the failing step', () => {
  const checked: typeof tictactoe = {
    ...tictactoe,
    checkTransition: (b, a) =>
      b.moves === 2 && a.board[4] !== -1 && b.board[4] === -1 ? ['Centre: nobody takes the centre on move 3'] : [],
  };
  const r = explore(checked);
  assert.equal(r.violations[0].kind, 'transition');
  assert.deepEqual(r.violations[0].messages, ['Centre: nobody takes the centre on move 3']);
  assert.equal(r.violations[0].trace.length, 3);
  assert.deepEqual(r.violations[0].trace[2].action, { type: 'mark', cell: 4 });
});

test('with validateMenus a menu element the validator refuses is reported', () => {
  const picky: typeof tictactoe = {
    ...tictactoe,
    validate: (s, seat, input) =>
      (input as { cell: number }).cell === 8 && s.moves === 1
        ? { ok: false, error: { code: 'illegal', reason: 'no corner 8 on move 2' } }
        : tictactoe.validate!(s, seat, input),
  };
  const r = explore(picky, { validateMenus: true });
  assert.equal(r.violations[0].kind, 'menu_rejected');
  assert.match(r.violations[0].messages[0], /\{"cell":8,"type":"mark"\} rejected: illegal/);
  assert.equal(r.violations[0].trace.length, 1);
  assert.equal(explore(picky).violations.length, 0, 'without the option menus are trusted');
});

test('a state bound stops the search and says it is incomplete', () => {
  const r = explore(tictactoe, { maxStates: 100 });
  assert.equal(r.complete, false);
  assert.equal(r.states, 100);
  const d = explore(tictactoe, { maxDepth: 2 });
  assert.equal(d.complete, false);
  assert.equal(d.states, 1 + 9 + 72);
});

test('a ruleset with stateKeyInto is explored exactly as with its string key, also when the key outgrows the buffer', () => {
  // a long key (over the explorer's first buffer) written both ways: the same units, so the same hashes
  const pad = 'x'.repeat(700);
  const keyOf = (s: { board: number[]; moves: number; result: number }) =>
    `${pad}${s.board.join(',')}|${s.moves}|${s.result}`;
  const withString: typeof tictactoe = { ...tictactoe, stateKey: keyOf };
  let calls = 0;
  const withUnits: typeof tictactoe = {
    ...withString,
    stateKeyInto(s, out) {
      calls++;
      const k = keyOf(s);
      for (let i = 0; i < k.length; i++) out[i] = k.charCodeAt(i);
      return k.length;
    },
  };
  const a = explore(withString);
  const b = explore(withUnits);
  assert.ok(calls > 5478, 'the explorer used stateKeyInto');
  for (const r of [a, b]) {
    assert.equal(r.states, 5478);
    assert.equal(r.terminal, 958);
    assert.equal(r.transitions, 16167);
    assert.equal(r.depth, 9);
  }
  assert.equal(explore(withUnits, { exactKeys: true }).states, 5478);
});

test('finished states count as terminal when their level is reached, also under bounds', () => {
  // depth 5 is the first with a win: the bound stops before expanding it, so none is counted yet
  assert.equal(explore(tictactoe, { maxDepth: 5 }).terminal, 0);
  assert.equal(explore(tictactoe, { maxDepth: 6 }).terminal, 120); // X wins on the fifth mark
});

test('[explore --exact] the sharded key set holds more keys than one Set allows and answers like a Set', async () => {
  const { ShardedKeySet } = await import('../../src/runners/explore.ts');
  const set = new ShardedKeySet();
  assert.equal(set.add('a'), true);
  assert.equal(set.add('a'), false);
  assert.equal(set.add('b'), true);
  assert.equal(set.size, 2);
  // capacity: 256 shards of up to 2^24 keys each, as long as keys spread; state-key-like keys do
  const spread = new ShardedKeySet();
  for (let i = 0; i < 20000; i++) spread.add(`C|A2|${i % 7},${i}|${i * 31}|x`);
  assert.equal(spread.size, 20000);
  assert.ok(Math.max(...spread.shardSizes()) < 20000 / 64, `largest shard ${Math.max(...spread.shardSizes())}`);
});
