// The terminal player's key handling, without a terminal: keys in, engine actions out.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handleKeys, renderScreen } from '../../src/cli/commands/mines-tui.ts';
import { mines } from '../../src/rulesets/mines/index.ts';

function ui(config: Record<string, unknown>) {
  const state = mines.setup(config, 1);
  const pos = (mines.view(state, 0) as { pos: [number, number] }).pos;
  return { state, cursor: [pos[0], pos[1]] as [number, number], log: [] as string[], message: '' };
}

test('[R7, R5] interactive player: out-of-reach digs go as one [move, dig] batch; the whole b_spawn column can be cleared with keys', () => {
  const u = ui({ board: 'b_spawn' });
  handleKeys(u, 'hhd'); // cursor to (1,3): not adjacent to (3,3), so move next to it and dig
  assert.match(u.log[0], /open \[1,3\] \(dig\): 2/);
  handleKeys(u, 'hdkdkdkdjjjjdjdjd');
  assert.equal(mines.outcome(u.state)?.winners[0], 0);
  assert.ok(u.log.some((l) => /round ends: cleared/.test(l)));
  assert.match(renderScreen(u), /GAME OVER/);
});

test('[R8, R5] interactive player: f toggles a flag, refusals are shown with their source, s stops the round', () => {
  const u = ui({ board: 'b_flag' });
  handleKeys(u, 'hhkf'); // flag (1,2) from a neighbour
  assert.equal((mines.view(u.state, 0) as { rows: string[] }).rows[2][1], 'F');
  handleKeys(u, 'd'); // digging the flagged cell is refused
  assert.match(u.message, /board_face\/flag_present/);
  handleKeys(u, 'f'); // pull it
  assert.equal((mines.view(u.state, 0) as { rows: string[] }).rows[2][1], '#');
  handleKeys(u, 's');
  assert.ok(u.log.some((l) => /round ends: stopped/.test(l)));
  assert.equal(handleKeys(u, 'q'), 'quit');
});
