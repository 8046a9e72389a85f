// The terminal player's key handling, without a terminal: keys in, engine actions out, and what
// the player reads (board, event list, messages).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handleKeys, newUi, renderScreen } from '../../src/rulesets/mines/terminal.ts';
import { mines } from '../../src/rulesets/mines/index.ts';

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
