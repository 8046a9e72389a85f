// Search agents: mcts against a perfect player and against random on tic-tac-toe, fairness
// (they read only the view), determinism for a seed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  SeededRandom,
  canonicalJson,
  type Agent,
  type AgentContext,
  type AgentRandom,
  type Json,
  type RulesetPackage,
} from '../../packages/engine/src/kernel/index.ts';
import { duelPackage } from '../../packages/engine/src/rulesets/duel/index.ts';
import { bncPackage } from '../../packages/engine/src/rulesets/bnc/index.ts';
import { makeAgents, searchHooks } from '../../src/agents/resolve.ts';
import { minesPackage } from '../../packages/engine/src/rulesets/mines/index.ts';
import {
  tictactoe,
  type TicTacToeState,
  type TicTacToeView,
} from '../../packages/engine/src/rulesets/tictactoe/index.ts';
import { runMatch } from '../../packages/engine/src/engine/run-match.ts';
import { sampling } from '../../src/runners/conformance.ts';
import { parseSearchArgs, searchAgent } from '../../packages/engine/src/agents/search/ismcts.ts';
import { outcomeRewards } from '../../packages/engine/src/agents/search/reward.ts';

// A perfect tic-tac-toe player by exhaustive minimax (test oracle, independent of the engine's search).
const memo = new Map<string, number>();
function value(board: number[], turn: number): number {
  const key = board.join(',') + turn;
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const lines = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
  ];
  for (const [a, b, c] of lines)
    if (board[a] !== -1 && board[a] === board[b] && board[b] === board[c]) return board[a] === 0 ? 1 : -1;
  if (!board.includes(-1)) return 0;
  let best = turn === 0 ? -2 : 2;
  for (let i = 0; i < 9; i++) {
    if (board[i] !== -1) continue;
    board[i] = turn;
    const v = value(board, 1 - turn);
    board[i] = -1;
    best = turn === 0 ? Math.max(best, v) : Math.min(best, v);
  }
  memo.set(key, best);
  return best;
}
function perfect(): Agent<Json, TicTacToeState> {
  return {
    name: 'minimax',
    choose(ctx) {
      const s = ctx.state;
      const scored = ctx.menu.actions.map((a) => {
        const cell = (a as { cell: number }).cell;
        const b = s.board.slice();
        b[cell] = s.turn;
        return { a, v: value(b, 1 - s.turn) * (s.turn === 0 ? 1 : -1) };
      });
      const best = Math.max(...scored.map((x) => x.v));
      const top = scored.filter((x) => x.v === best);
      return top[ctx.random.int(top.length)].a;
    },
  };
}
const randomAgent: Agent = { name: 'random', choose: (ctx) => ctx.random.pick(ctx.menu.actions) };

test('[search] mcts at 1,000 iterations almost never loses to a perfect player (100 games, seats rotated)', async () => {
  // 100 pinned seeds: a value or backup error loses many of them to a perfect player
  let losses = 0;
  for (let g = 0; g < 100; g++) {
    const mctsSeat = g % 2;
    const agents =
      mctsSeat === 0
        ? [searchAgent('mcts', parseSearchArgs('1000', false)), perfect()]
        : [perfect(), searchAgent('mcts', parseSearchArgs('1000', false))];
    const m = await runMatch(tictactoe, agents, { seed: 1000 + g });
    if (m.outcome && m.outcome.winners.length > 0 && !m.outcome.winners.includes(mctsSeat)) losses++;
  }
  // measured at 200 games: 2 losses on seeds 1000-1199 and on 3000-3199 (per-decision agent
  // streams, and the per-seat streams before them); a bound of 0 holds only by luck of the seeds
  assert.ok(losses <= 2, `mcts lost ${losses} of 100 games to minimax`);
});

test('[search] mcts at 1,000 iterations wins at least 94% against random (100 games, seats rotated)', async () => {
  let wins = 0;
  for (let g = 0; g < 100; g++) {
    const mctsSeat = g % 2;
    const agents =
      mctsSeat === 0
        ? [searchAgent('mcts', parseSearchArgs('1000', false)), randomAgent]
        : [randomAgent, searchAgent('mcts', parseSearchArgs('1000', false))];
    const m = await runMatch(tictactoe, agents, { seed: 5000 + g });
    if (m.outcome?.winners.includes(mctsSeat)) wins++;
  }
  // the ceiling against a uniform random player is 96.7% (99.5% as X, 93.9% as O, by expectimax);
  // 94 of 100 keeps the margin of the former 190 of 200 (about 1.5 standard deviations below it)
  assert.ok(wins >= 94, `mcts won ${wins}/100 against random`);
});

test('[search] the search never reads the omniscient state', async () => {
  const agent = searchAgent('mcts', parseSearchArgs('200', false));
  const s = tictactoe.setup({}, 1);
  const poisoned = new Proxy(s, {
    get: () => {
      throw new Error('read the state');
    },
  });
  const ctx: AgentContext = {
    ruleset: tictactoe,
    seat: 0,
    kind: 'move',
    view: tictactoe.view(s, 0),
    menu: tictactoe.legal(s, 0),
    state: poisoned,
    random: new SeededRandom(3),
  };
  assert.doesNotThrow(() => agent.choose(ctx));
});

test('[search] same seed, same decision', () => {
  const s = tictactoe.setup({}, 1);
  const ctx: AgentContext = {
    ruleset: tictactoe,
    seat: 0,
    kind: 'move',
    view: tictactoe.view(s, 0),
    menu: tictactoe.legal(s, 0),
    state: s,
    random: new SeededRandom(9),
  };
  const pick = () =>
    searchAgent('ismcts', parseSearchArgs('300', true)).choose({ ...ctx, random: new SeededRandom(9) });
  assert.deepEqual(pick(), pick());
});

test('[search] rewards: winners 1, others 0; places scale; unfinished is a draw', () => {
  assert.deepEqual(outcomeRewards({ winners: [1], reason: 'x' }, 3), [0, 1, 0]);
  assert.deepEqual(outcomeRewards({ winners: [], places: [1, 2, 3], reason: 'x' }, 3), [1, 0.5, 0]);
  assert.deepEqual(outcomeRewards(null, 2), [0.5, 0.5]);
});

test('[search] bad options are typed errors', () => {
  assert.throws(() => parseSearchArgs('x', false), /positive number/);
  assert.throws(() => parseSearchArgs('foo=3', false), /unknown search agent option/);
  assert.throws(() => parseSearchArgs('c=0', true), /positive number/);
  // widening and the policy prior may be switched off
  const o = parseSearchArgs('it=50/widen=0,prior=0', true);
  assert.deepEqual([o.iterations, o.widen, o.prior], [50, 0, 0]);
});

test('[search] the conformance check catches a sampler that changes what the seat sees', () => {
  assert.deepEqual(sampling(tictactoe), []);
  const broken = {
    ...tictactoe,
    sampleState: (view: TicTacToeView, seat: number, r: AgentRandom) => {
      const s = tictactoe.sampleState!(view, seat, r);
      s.board[s.board.indexOf(-1)] = 1 - s.turn;
      return s;
    },
  };
  assert.match(sampling(broken).join('\n'), /different view/);
});

test('[search] ismcts with a package policy never reads the omniscient state (duel, bnc): the policy plays its own sample', () => {
  for (const pkg of [duelPackage, bncPackage] as RulesetPackage<unknown, Json>[]) {
    const rs = pkg.ruleset;
    const s = rs.setup({}, 4);
    const seat = rs.pending(s)[0].seat;
    const poisoned = new Proxy(s as object, {
      get: () => {
        throw new Error('read the state');
      },
    });
    const ctx: AgentContext = {
      ruleset: rs,
      seat,
      kind: rs.pending(s)[0].kind,
      view: rs.view(s, seat),
      menu: rs.legal(s, seat),
      state: poisoned,
      random: new SeededRandom(5),
    };
    const agent = searchAgent('ismcts', parseSearchArgs('30', true), searchHooks(pkg));
    const pick = agent.choose(ctx) as Json;
    assert.ok(
      ctx.menu.actions.some((a) => canonicalJson(a) === canonicalJson(pick)),
      `${rs.id}: ismcts answered off the menu`,
    );
  }
});

test('[search] ismcts with a package policy: same seed, same decision (duel)', () => {
  const rs = duelPackage.ruleset;
  const s = rs.setup({}, 8);
  const { seat, kind } = rs.pending(s)[0];
  const ctx: AgentContext = {
    ruleset: rs,
    seat,
    kind,
    view: rs.view(s, seat),
    menu: rs.legal(s, seat),
    state: s,
    random: new SeededRandom(1),
  };
  const pick = () =>
    searchAgent('ismcts', parseSearchArgs('40', true), searchHooks(duelPackage)).choose({
      ...ctx,
      random: new SeededRandom(21),
    });
  assert.deepEqual(pick(), pick());
});

test('[search] a package evaluation judges playouts cut at its depth', () => {
  const s = tictactoe.setup({}, 1);
  const ctx: AgentContext = {
    ruleset: tictactoe,
    seat: 0,
    kind: 'move',
    view: tictactoe.view(s, 0),
    menu: tictactoe.legal(s, 0),
    state: s,
    random: new SeededRandom(2),
  };
  // an evaluation that only likes the corner 8 for X: playouts stop at once (depth 0) and ask it
  const hooks = {
    depth: 0,
    evaluate: (st: unknown) => ((st as TicTacToeState).board[8] === 0 ? [1, 0] : [0, 1]),
  };
  for (const resample of [false, true]) {
    const pick = searchAgent(resample ? 'ismcts' : 'mcts', parseSearchArgs('200', resample), hooks).choose(ctx);
    assert.deepEqual(pick, { type: 'mark', cell: 8 });
  }
});

test('[search] seating mcts or ismcts for a ruleset without a sampler is a typed error (mines)', () => {
  for (const spec of ['mcts', 'ismcts:50'])
    assert.throws(() => makeAgents(minesPackage, spec, 1), /needs mines to sample states/);
});
