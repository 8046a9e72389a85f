// The mines state and action records. Plain JSON: A2's board part, the A3 ledger, the run the
// B1 role keeps (boards to clear, round cap) and the seeded stream boards are generated from.

import type { RngState } from '../../kernel/index.ts';
import type { A2State } from './board/engine.ts';
import type { Board } from './board/geometry.ts';
import type { ActionOutcome, Cell, CellIntentType, Diagnostic, Intent } from './board/types.ts';
import type { GenParams } from './generator/generator.ts';
import type { LedgerState } from './ledger/ledger.ts';

type RunState = {
  boards_target: number;
  max_rounds: number;
  boards_cleared: number;
  boards_installed: number;
  /** A fixture board is re-installed for every new board; null when boards are generated. */
  fixture: Board | null;
  gen: Required<GenParams> | null;
  ended: null | 'cleared' | 'round_cap';
  /** The ActionOutcome list of the last settled batch (A2's return value, shown in the view). */
  last: ActionOutcome[];
  /** A2's diagnostics from the last action (EC9: never swallowed; shown in the view). */
  diagnostics: Diagnostic[];
  mines_dug: number;
};

export type MinesState = {
  a2: A2State;
  a3: LedgerState;
  run: RunState;
  rng: RngState;
};

type CellAction = { type: CellIntentType; cell: Cell };
export type MinesAction = CellAction | { type: 'stop' } | { type: 'refresh' } | { type: 'batch'; intents: Intent[] };
