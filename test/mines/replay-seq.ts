// A fixed intent sequence on b_fog covering all three channels, flags, a move, a multi-intent
// batch and a stop, for the replay criteria (AC-18/19/20). Run with --print BOARD to print the
// event stream's hash from a separate process (AC-19 across processes).

import { canonicalJson, hashText } from '../../packages/engine/src/kernel/index.ts';
import type { Board } from '../../packages/engine/src/rulesets/mines/board/geometry.ts';
import { createA2, installBoard, settleBatch } from '../../packages/engine/src/rulesets/mines/board/engine.ts';
import type { Intent, MinesEvent } from '../../packages/engine/src/rulesets/mines/board/types.ts';
import { createLedger } from '../../packages/engine/src/rulesets/mines/ledger/ledger.ts';
import { economyTable } from '../../packages/engine/src/rulesets/mines/ledger/economy.ts';
import { notifyRoundStart } from '../../packages/engine/src/rulesets/mines/orchestrator/orchestrator.ts';
import { fixture } from '../../packages/engine/src/rulesets/mines/fixtures.ts';

const c = (type: Intent['type'], x: number, y: number): Intent => ({ type, cell: [x, y] });

export const SEQUENCE: Intent[][] = [
  [c('move', 5, 1)],
  [c('dig', 6, 0)], // channel dig, fog, unreachable by chain
  [c('flag_place', 6, 1)],
  [c('flag_place', 5, 0)],
  [c('flag_pull', 5, 0)],
  [c('move', 3, 3)],
  [c('dig', 3, 4)],
  [c('move', 3, 4)],
  [c('dig', 3, 5), c('move', 3, 5)], // a two-intent batch, both C_other, arrival order kept
  [c('dig', 3, 6)], // the chain, through fog (0,5),(1,5)
  [c('flag_place', 2, 5), { type: 'stop' }], // stop outranks the flag: the flag is voided
];

/** Install `board` (after `mutate`, applied once installed), run the sequence, return the events. */
export function runSequence(board: Board, afterInstall?: (b: Board) => void): MinesEvent[] {
  const w = { a2: createA2(), a3: createLedger(economyTable({})) };
  const events: MinesEvent[] = [];
  const sink = { emit: (e: MinesEvent) => events.push(JSON.parse(JSON.stringify(e))), diagnose: () => {} };
  if (!installBoard(w, board, sink).accepted) throw new Error('install failed');
  afterInstall?.(board);
  notifyRoundStart(w);
  for (const b of SEQUENCE) settleBatch(w, b, sink);
  return events;
}

if (process.argv.includes('--print')) {
  const name = process.argv[process.argv.indexOf('--print') + 1];
  process.stdout.write(hashText(canonicalJson(runSequence(fixture(name)))) + '\n');
}
