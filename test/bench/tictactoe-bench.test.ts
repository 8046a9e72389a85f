// The tic-tac-toe benchmark must measure what it claims: every case does real work, and the
// plain loop and boardgame.io play exactly the games the engine plays for the same seed, so the
// ratios compare one game, not three. No timings are asserted.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeededRandom, type GameEvent } from '../../packages/engine/src/kernel/index.ts';
import { tictactoe, type TicTacToeAction } from '../../packages/engine/src/rulesets/tictactoe/index.ts';
import { cases, compareTicTacToe, engineGame, engineGameChecked, plainGame } from '../../bench/tictactoe.ts';
import {
  bgioBotCase,
  bgioCase,
  bgioGame1,
  cases as peerCases,
  loadBoardgameIo,
  newBgioClient,
} from '../../bench/peers/boardgameio.ts';
import type { BenchResult } from '../../bench/types.ts';

const SEED = 4242;

/** The engine's result in the plain loop's code: 0/1 the winning seat, 2 a draw. */
function engineCode(state: ReturnType<typeof tictactoe.setup>): number {
  const out = tictactoe.outcome(state);
  assert.ok(out, 'an engine game ended without an outcome');
  return out.winners.length === 0 ? 2 : out.winners[0];
}

test('every tictactoe bench case does work with a tiny budget and reports per-CPU-second figures', async () => {
  const bgioMissing = loadBoardgameIo() instanceof Error;
  const results: BenchResult[] = [];
  for (const c of [...cases, ...peerCases]) {
    const r = await c.run(10);
    results.push(r);
    assert.equal(r.case, c.name);
    if (c.name.includes('boardgame.io') && bgioMissing) {
      assert.match(String(r.extra?.error), /boardgame\.io unavailable/);
      continue;
    }
    assert.equal(r.extra?.error, undefined, `${c.name} failed: ${r.extra?.error}`);
    assert.ok(
      r.games > 0 && r.moves >= 5 * r.games && r.moves <= 9 * r.games,
      `${c.name}: ${r.games} games, ${r.moves} moves`,
    );
    assert.ok(r.cpu_ms > 0 && r.games_per_cpu_s > 0 && r.moves_per_cpu_s > 0, `${c.name}: ${JSON.stringify(r)}`);
  }
  compareTicTacToe(results);
  const engine = results.find((r) => r.case === 'tictactoe/engine')!;
  assert.equal(typeof engine.extra?.vs_plain, 'number');
  assert.equal(typeof engine.extra?.target_within_5x_of_plain, 'boolean');
  if (!bgioMissing) assert.equal(typeof engine.extra?.vs_boardgameio, 'number');
});

test('the plain loop plays the same 2000 games as the engine, move by move', () => {
  const rngEngine = new SeededRandom(SEED);
  const rngPlain = new SeededRandom(SEED);
  const events: GameEvent[] = [];
  const results = [0, 0, 0];
  for (let g = 0; g < 2000; g++) {
    const engineMoves: TicTacToeAction[] = [];
    const { state, moves } = engineGame(tictactoe, g, rngEngine, events, engineMoves);
    const plainCells: number[] = [];
    const code = plainGame(rngPlain, plainCells);
    assert.deepEqual(
      plainCells,
      engineMoves.map((a) => a.cell),
      `game ${g}: different moves`,
    );
    assert.equal(code >> 2, moves, `game ${g}: different length`);
    assert.equal(code & 3, engineCode(state), `game ${g}: different result`);
    results[code & 3]++;
  }
  // random play gives all three results; a floor stuck on one kind of game would show here
  assert.ok(
    results.every((n) => n > 100),
    `results ${results}`,
  );
});

test('the checked path (act) plays the same games as the trusted path (step)', () => {
  const rngFast = new SeededRandom(SEED);
  const rngChecked = new SeededRandom(SEED);
  const events: GameEvent[] = [];
  for (let g = 0; g < 500; g++) {
    const fast: TicTacToeAction[] = [];
    const checked: TicTacToeAction[] = [];
    const a = engineGame(tictactoe, g, rngFast, events, fast);
    const b = engineGameChecked(tictactoe, g, rngChecked, checked);
    assert.deepEqual(checked, fast, `game ${g}`);
    assert.deepEqual(b.state, a.state, `game ${g}`);
  }
});

test('boardgame.io plays the same games as the plain loop for the same seed', (t) => {
  const mods = loadBoardgameIo();
  if (mods instanceof Error) {
    t.skip(`boardgame.io unavailable: ${mods.message}`);
    return;
  }
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  const client = newBgioClient(mods);
  try {
    const rngBg = new SeededRandom(SEED);
    const rngPlain = new SeededRandom(SEED);
    for (let g = 0; g < 200; g++) {
      const bgCells: number[] = [];
      const plainCells: number[] = [];
      const bgCode = bgioGame1(client, rngBg, bgCells);
      const plainCode = plainGame(rngPlain, plainCells);
      assert.deepEqual(bgCells, plainCells, `game ${g}: different moves`);
      assert.equal(bgCode, plainCode, `game ${g}: different result or length`);
    }
  } finally {
    client.stop();
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  }
});

test('tictactoe menus and pending lists are shared read-only values', () => {
  // the fast path hands out frozen values; a caller that writes to them must fail loudly
  const s = tictactoe.setup({}, 1);
  const menu = tictactoe.legal(s, 0);
  assert.equal(menu.actions.length, 9);
  assert.throws(() => (menu.actions as TicTacToeAction[]).push({ type: 'mark', cell: 0 }));
  assert.throws(() => tictactoe.pending(s).pop());
  assert.deepEqual(tictactoe.pending(s), [{ seat: 0, kind: 'move' }]);
  assert.deepEqual(tictactoe.legal(s, 1).actions, []);
});

test('a missing boardgame.io gives its cases an error field, not a crash, and leaves ratios null', async () => {
  const missing = () => new Error("Cannot find module 'boardgame.io/client'");
  const results: BenchResult[] = [];
  for (const c of [bgioCase(missing), bgioBotCase(missing)]) {
    const r = await c.run(5);
    assert.equal(r.moves_per_cpu_s, 0);
    assert.match(String(r.extra?.error), /boardgame\.io unavailable: Cannot find module/);
    results.push(r);
  }
  const engine = cases.find((c) => c.name === 'tictactoe/engine')!;
  results.push(await engine.run(5));
  compareTicTacToe(results);
  const e = results.at(-1)!;
  assert.equal(e.extra?.vs_boardgameio, null);
  assert.equal(e.extra?.target_100x_boardgameio, null);
  assert.equal(e.extra?.vs_plain, null); // no plain case in this run
});
