// The mines board's reading of the view (web/src/boards/mines/model.ts), without a browser: the
// four cell states, the click intents, the ring, the labels that must not carry a fog digit, and
// refusals and voided intents in words (the seed's D1 duties ②, ③, ⑥ and contract items 9–11).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { minesPackage, type MinesAction, type MinesState } from '../../packages/engine/src/rulesets/mines/index.ts';
import type { GameEvent, Json } from '../../packages/engine/src/kernel/index.ts';
import { B_BATCH_TO_LAST_SAFE } from './mines-fixtures.ts';
import {
  cellKind,
  cellLabel,
  inRing,
  lastBatchLines,
  preview,
  primaryIntent,
  readView,
  refusalWords,
  secondaryIntent,
} from '../../web/src/boards/mines/model.ts';

const r = minesPackage.ruleset;

function play(s: MinesState, a: MinesAction): { s: MinesState; events: GameEvent[] } {
  const v = r.validate!(s, 0, a);
  assert.ok(v.ok, `refused: ${JSON.stringify(a)}`);
  const next = structuredClone(s);
  const events: GameEvent[] = [];
  r.apply(next, 0, v.action, events);
  return { s: next, events };
}

const one = (it: MinesAction & { type: 'dig' | 'move' | 'flag_place' | 'flag_pull' | 'stop' }): MinesAction => ({
  type: 'batch',
  intents: [it],
});

test('[D1-2] the four cell states read apart: open zero floor, open fog, closed, closed fog', () => {
  let s = r.setup({ board: 'b_fog' }, 1) as MinesState;
  for (const a of [
    one({ type: 'move', cell: [3, 3] }),
    one({ type: 'dig', cell: [3, 4] }),
    one({ type: 'move', cell: [3, 4] }),
    one({ type: 'dig', cell: [3, 5] }),
    one({ type: 'move', cell: [3, 5] }),
    one({ type: 'dig', cell: [3, 6] }),
  ])
    s = play(s, a).s;
  const v = readView(r.view(s, 0) as Json)!;
  assert.ok(v);
  const kinds = new Set<string>();
  for (let y = 0; y < v.h; y++) for (let x = 0; x < v.w; x++) kinds.add(cellKind(v.rows[y][x]));
  for (const k of ['floor', 'fog', 'closed', 'closed-fog', 'digit']) assert.ok(kinds.has(k), `state ${k} present`);
  assert.equal(cellKind(v.rows[5][0]), 'fog'); // chain-opened fog (0,5): true digit 2, shown as none
  assert.equal(cellKind(v.rows[0][6]), 'closed-fog');
  // the label of an opened fog cell names no number, whatever its true digit is
  const label = cellLabel(v, 0, 5).replace('(0,5)', '');
  assert.doesNotMatch(label, /\d/);
  assert.match(label, /number hidden/);
});

test('[D1-3, R7, R12] left click moves on any open cell (a digit too: no chord) and digs a closed one; right click flags or pulls', () => {
  const s = r.setup({ board: 'b_spawn' }, 1) as MinesState;
  const v = readView(r.view(s, 0) as Json)!;
  const digit = v.rows.findIndex((row) => /[1-8]/.test(row));
  const dx = v.rows[digit].search(/[1-8]/);
  assert.deepEqual(primaryIntent(v, dx, digit), { type: 'move', cell: [dx, digit] });
  assert.deepEqual(primaryIntent(v, 1, 3), { type: 'dig', cell: [1, 3] });
  assert.deepEqual(secondaryIntent(v, 1, 3), { type: 'flag_place', cell: [1, 3] });
  // the ring: closed cells next to the figure, and only those
  const ring: string[] = [];
  for (let y = 0; y < v.h; y++) for (let x = 0; x < v.w; x++) if (inRing(v, x, y)) ring.push(`${x},${y}`);
  const [px, py] = v.pos!;
  for (const c of ring) {
    const [x, y] = c.split(',').map(Number);
    assert.ok(Math.max(Math.abs(x - px), Math.abs(y - py)) === 1);
    assert.match(v.rows[y][x], /[#%F]/);
  }
  // the preview pre-commits: a move has its path (from the rules layer's query), a far closed cell is blocked
  const p = preview(v, dx, digit);
  assert.equal(p.look, 'move');
  assert.deepEqual(p.path[0], v.pos);
  assert.deepEqual(p.path.at(-1), [dx, digit]);
  assert.equal(preview(v, 0, 0).look, v.rows[0][0] === '#' ? 'blocked' : 'move');
});

test('[D1-6, EC9] every refusal reads as words mapped from reject_reason and sub_reason', () => {
  const s = r.setup({ board: 'b_spawn' }, 1) as MinesState;
  const prices = (r.view(s, 0) as { prices: { [k: string]: number } }).prices;
  const cases: [MinesAction, RegExp][] = [
    [one({ type: 'dig', cell: [0, 0] }), /not next to you/],
    [one({ type: 'dig', cell: [2, 2] }), /already open/],
    [one({ type: 'move', cell: [0, 0] }), /only move onto open cells/],
    [one({ type: 'flag_pull', cell: [2, 2] }), /no flag on that cell/],
    [{ type: 'batch', intents: [{ type: 'flag_place', cell: [2, 4] }] }, /already open/],
    [one({ type: 'dig', cell: [40, 2] }), /not a cell of this board/],
  ];
  for (const [a, words] of cases) {
    const v = r.validate!(s, 0, a);
    assert.equal(v.ok, false);
    if (v.ok || a.type !== 'batch') continue;
    const it = a.intents[0];
    // from the reason text alone (what the page's socket passes on) and from the detail
    const fromReason = refusalWords(it, v.error.code, v.error.reason, null, prices);
    const fromDetail = refusalWords(it, v.error.code, '', (v.error.detail ?? null) as never, prices);
    assert.match(fromReason, words, fromReason);
    assert.match(fromDetail, words, fromDetail);
    assert.doesNotMatch(fromReason, /board_face|sub_reason|_/);
  }
});

test('[D1-6, F4, EC6] a voided stop is put into words (a clearing dig and a stop in one batch)', () => {
  // b_batch: 8 closed safe cells; 7 digs leave one, and the 8th dig clears while a stop rides along
  let s = r.setup({ board: 'b_batch', boards: 2 }, 1) as MinesState;
  const steps = B_BATCH_TO_LAST_SAFE;
  for (const a of steps) s = play(s, a).s;
  assert.equal(s.a2.rem, 1);
  const res = play(s, {
    type: 'batch',
    intents: [{ type: 'dig', cell: [0, 6] }, { type: 'stop' }],
  });
  const v = readView(r.view(res.s, 0) as Json)!;
  const lines = lastBatchLines(v, null);
  assert.equal(lines.length, 1);
  assert.match(lines[0], /^intent 2 of 2 voided: .*round had already ended/);
  const named = lastBatchLines(v, [{ type: 'dig', cell: [0, 6] }, { type: 'stop' }]);
  assert.match(named[0], /^stop the round voided/);
});
