// A running two-seat tic-tac-toe match's row as a store receives it at creation: the fixture the store
// tests write and the in-process store bench (bench/store-moves.ts) measures with. It lives here, not
// under test/, because a bench imports no test helper.

import type { MatchRow } from '../src/server/store.ts';

/** The row of match `id`, created and last changed at `at` (ms since the epoch). */
export function tictactoeRow(id: string, at = 1): MatchRow {
  return {
    id,
    ruleset: 'tictactoe',
    version: '1',
    seed: 1,
    config: {},
    header: { ruleset: 'tictactoe' },
    status: 'running',
    spectateHash: null,
    deadlineMs: null,
    seats: 2,
    seq: 0,
    hash: 'h0',
    outcome: null,
    createdAt: at,
    updatedAt: at,
  };
}
