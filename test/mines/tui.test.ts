// The terminal player's key handling, without a terminal: keys in, engine actions out, and what
// the player reads (board, event list, messages).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handleKeys, newUi, renderScreen, send } from '../../packages/engine/src/rulesets/mines/terminal.ts';
import { describeEvent } from '../../packages/engine/src/rulesets/mines/describe.ts';
import { mines } from '../../packages/engine/src/rulesets/mines/index.ts';

const ui = (config: Record<string, unknown>) => newUi(mines.setup(config, 1));
const rows = (u: ReturnType<typeof ui>) => (mines.view(u.state, 0) as { rows: string[] }).rows;

test('[R7, R5] interactive player: out-of-reach digs go as one [move, dig] batch; the whole b_spawn column can be cleared with keys', () => {
  const u = ui({ board: 'b_spawn' });
  handleKeys(u, 'hhd'); // cursor to (1,3): not adjacent to (3,3), so move next to it and dig
  assert.match(u.log[0], /\(1,3\) dug: 2/);
  handleKeys(u, 'hdkdkdkdjjjjdjdjd');
  assert.equal(mines.outcome(u.state)?.winners[0], 0);
  assert.ok(u.log.some((l) => /round ends: board cleared/.test(l)));
  assert.match(renderScreen(u), /GAME OVER/);
});

test('[R8, R5] interactive player: f toggles a flag, refusals are shown in words, s stops the round', () => {
  const u = ui({ board: 'b_flag' });
  handleKeys(u, 'hhkf'); // flag (1,2) from a neighbour
  assert.equal(rows(u)[2][1], 'F');
  handleKeys(u, 'd'); // digging the flagged cell is refused
  assert.match(u.message.join('\n'), /there is a flag on that cell: pull the flag first/);
  assert.doesNotMatch(u.message.join('\n'), /board_face|flag_present/);
  handleKeys(u, 'f'); // pull it
  assert.equal(rows(u)[2][1], '#');
  handleKeys(u, 's');
  assert.ok(u.log.some((l) => /round ends: you stopped/.test(l)));
  assert.equal(handleKeys(u, 'q'), 'quit');
});

test("[U-M10, R2] terminal: an opened fog cell shows no number in the event list; the figure's cell keeps its digit", () => {
  const line = describeEvent({
    type: 'cell_revealed',
    cell: [0, 5],
    kind: 'safe',
    digit: 2,
    variant_ids: ['fog'],
    channel: 'chain',
    reward_eligible: true,
  });
  assert.doesNotMatch(line, /\d$/);
  assert.match(line, /number stays hidden/);
  const u = ui({ board: 'b_spawn' });
  handleKeys(u, 'hm'); // move the figure onto (2,3), digit 2
  const row3 = renderScreen(u, false).split('\n')[2 + 3];
  assert.match(row3, /\[2\]/, row3);
});

test('[R9, U-M6] terminal: a half-refused batch reads as such, each refusal in words', () => {
  const u = ui({ board: 'b_spawn' });
  send(u, {
    type: 'batch',
    intents: [
      { type: 'dig', cell: [0, 0] },
      { type: 'move', cell: [2, 3] },
      { type: 'dig', cell: [9, 9] },
    ],
  });
  const text = u.message.join('\n');
  assert.match(text, /only partly carried out/);
  assert.match(text, /dig \(0,0\) — that cell is not next to you/);
  assert.match(text, /dig \(9,9\) — that is not a cell of this board/);
  assert.match(text, /\[debug\] out_of_catalog/);
  assert.doesNotMatch(text, /board_face|not_adjacent/);
});
