// The seeded generator (A1 role), the deduction solver and the no-guess mode.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson } from '../../packages/engine/src/kernel/index.ts';
import {
  GenError,
  boardId,
  generate,
  normaliseParams,
  parseBoardId,
} from '../../packages/engine/src/rulesets/mines/generator/generator.ts';
import { Solver, gridFromBoard, solveBoard } from '../../packages/engine/src/rulesets/mines/generator/solver.ts';
import { checkInvariants } from '../../packages/engine/src/rulesets/mines/board/engine.ts';
import { fixture } from '../../packages/engine/src/rulesets/mines/fixtures.ts';
import { naiveDigit, naiveR0 } from './helpers.ts';

const PARAMS = [
  { width: 9, height: 9, mines: 10, fog: 2 },
  { width: 16, height: 16, mines: 40, fog: 4 },
  { width: 30, height: 16, mines: 99, fog: 3 },
  { width: 12, height: 7, mines: 20, fog: 1, spawn: [2, 2] as [number, number] },
];

test('[R3, F3, EC2] every generated board passes install; fog is safe, non-zero, outside the spawn square and R0', () => {
  for (const p of PARAMS) {
    for (let seed = 0; seed < 25; seed++) {
      const b = generate(p, seed);
      assert.equal(checkInvariants(b), null, `${b.id}`);
      let m = 0;
      for (const ch of b.mines) if (ch === '1') m++;
      assert.equal(m, p.mines);
      assert.equal(b.variants.length, p.fog);
      const r0 = new Set(naiveR0(b).map(([x, y]) => y * b.w + x));
      for (const [c, ids] of b.variants) {
        const x = c % b.w;
        const y = Math.floor(c / b.w);
        assert.deepEqual(ids, ['fog']);
        assert.equal(b.mines[c], '0', 'fog is safe');
        assert.notEqual(naiveDigit(b, x, y), 0, 'fog never on a zero digit');
        assert.ok(!r0.has(c), 'fog outside R0 (and so outside the spawn square)');
        assert.ok(Math.abs(x - b.spawn[0]) > 1 || Math.abs(y - b.spawn[1]) > 1);
      }
    }
  }
});

test('[R1] generation is a pure function of (parameters, seed) and the board id reproduces the board', () => {
  const p = { width: 16, height: 16, mines: 40, fog: 3, no_guess: true };
  const a = generate(p, 12345);
  const b = generate(p, 12345);
  assert.equal(canonicalJson(a), canonicalJson(b));
  assert.notEqual(generate(p, 12346).mines, a.mines);
  const { params, seed } = parseBoardId(a.id);
  assert.equal(canonicalJson(generate(params, seed)), canonicalJson(a));
  assert.equal(a.id, boardId(normaliseParams(p), 12345));
});

test('[R3] bad generator parameters get clear errors', () => {
  const bad: Array<[Record<string, unknown>, RegExp]> = [
    [{ width: 3, height: 9, mines: 5 }, /width must be an integer from 4/],
    [{ width: 9, height: 9, mines: 72 }, /mines must be an integer from 1 to 71/],
    [{ width: 9, height: 9, mines: 0 }, /mines/],
    [{ width: 9, height: 9, mines: 10, fog: 70 }, /fog must be/],
    [{ width: 9, height: 9, mines: 10, spawn: [0, 4] }, /spawn x/],
    [{ width: 9.5, height: 9, mines: 10 }, /width/],
    [{ width: 3000, height: 3000, mines: 10 }, /width must be/],
  ];
  for (const [p, re] of bad)
    assert.throws(
      () => generate(p, 1),
      (e: unknown) => e instanceof GenError && re.test(e.message),
      JSON.stringify(p),
    );
  assert.throws(() => parseBoardId('nonsense'), GenError);
  assert.throws(() => generate({ width: 9, height: 9, mines: 10 }, -1), GenError);
});

test('[F3, R6] the solver never deduces wrongly and its inference rate is a share of the non-initial safe cells', () => {
  for (let seed = 0; seed < 40; seed++) {
    const b = generate({ width: 16, height: 16, mines: 45, fog: 3 }, seed);
    const g = gridFromBoard(b);
    const s = new Solver(g);
    s.start();
    assert.equal(s.r0, naiveR0(b).length, 'the solver starts from exactly R0');
    s.run(null);
    for (let i = 0; i < g.n; i++) {
      if (s.st[i] === 1) assert.equal(g.mines[i], 0, 'opened cells are safe');
      if (s.st[i] === 2) assert.equal(g.mines[i], 1, 'deduced mines are mines');
    }
    const r = solveBoard(b);
    assert.ok(r.rate >= 0 && r.rate <= 1);
    assert.equal(r.cleared, r.rate === 1);
  }
  // on a fixture the solver starts from the registered R0 and counts the registered |S|
  const spawn = solveBoard(fixture('b_spawn'));
  assert.equal(spawn.r0, 35);
  assert.equal(spawn.safe, 43);
});

test('[R1] no-guess boards are cleared by the solver from R0 without a guess', () => {
  let cleared = 0;
  let randomCleared = 0;
  for (let seed = 0; seed < 30; seed++) {
    const p = { width: 30, height: 16, mines: 99, fog: 3 };
    const ng = generate({ ...p, no_guess: true }, seed);
    assert.equal(checkInvariants(ng), null);
    if (solveBoard(ng).cleared) cleared++;
    if (solveBoard(generate(p, seed)).cleared) randomCleared++;
  }
  assert.equal(cleared, 30);
  assert.ok(randomCleared < 30, 'expert density is not guess-free by chance');
});

test('[F3] the global mine count across frontier components decides endgames a local enumeration cannot', () => {
  // plain random boards Tatham's solver clears and ours did not before this rule: two separate
  // frontier pockets, or a pocket next to one, whose counts only add up with the total
  const cases: Array<[number, number, number, number]> = [
    [16, 16, 40, 262],
    [16, 16, 40, 1365],
    [30, 16, 99, 335],
    [30, 16, 99, 702],
    [30, 16, 99, 957],
  ];
  for (const [width, height, mines, seed] of cases) {
    const b = generate({ width, height, mines, fog: 0 }, seed);
    assert.ok(solveBoard(b, { freeDig: true }).cleared, `${b.id} (free digging)`);
    assert.ok(solveBoard(b).cleared, `${b.id} (game rules)`);
  }
  // free digging never deduces wrongly either
  for (let seed = 0; seed < 40; seed++) {
    const g = gridFromBoard(generate({ width: 30, height: 16, mines: 99, fog: 0 }, seed));
    const s = new Solver(g);
    s.freeDig = true;
    s.start();
    s.run(null);
    for (let i = 0; i < g.n; i++) {
      if (s.st[i] === 1) assert.equal(g.mines[i], 0, 'opened cells are safe');
      if (s.st[i] === 2) assert.equal(g.mines[i], 1, 'deduced mines are mines');
    }
  }
});
