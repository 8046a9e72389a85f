// Rule catalog of the mines ruleset: the seed's numbered rules, formulas, edge cases and
// acceptance criteria (ids kept, summaries in our words), and the engine's U-items.

import type { Catalog, RuleEntry, UItem } from '../../kernel/index.ts';

const R = (id: string, group: string, summary: string): RuleEntry => ({ id, group, summary });

const rules: RuleEntry[] = [
  R(
    'R1',
    'Principles',
    'Board + intent sequence in, event stream out; same inputs give byte-identical events. No randomness, no literal prices, no table reads, no UI dependency inside A2.',
  ),
  R(
    'R2',
    'Principles',
    'Exactly three event kinds: cell_revealed per opened cell, flag_judged per standing flag at round end, one round_end; flags are all judged before round_end on every path.',
  ),
  R(
    'R3',
    'Install',
    'install_board is accepted in Idle/Waiting (Active only on the refresh path), checks the four invariants fail-fast with a board_invalid diagnostic, then expands R0 and puts the figure on the spawn centre.',
  ),
  R(
    'R4',
    'Install',
    'The initial expansion opens exactly R0 (spawn 3x3 plus zero closure, no extra ring) once per install: free, counted toward clearing, never reward-eligible, never a mine or fog.',
  ),
  R(
    'R5',
    'Actions',
    'Dig, flag place and flag pull are checked on the board first, then paid through the ledger; a refusal changes nothing and carries one of three sources (board_face, resource_face, phase). A2 never deducts AP itself and reports chain_size/clears_map.',
  ),
  R(
    'R6',
    'Actions',
    'Digging a zero cell opens its unflagged safe neighbours for free, recursively through zero cells; flags block the chain and are no source; fog cells open but never spread (their digit is never 0).',
  ),
  R(
    'R7',
    'Actions',
    'Moving to an open cell teleports the figure along a BFS path through open cells (dug mines included); free, no event; compute_move_path gives the same path.',
  ),
  R(
    'R8',
    'Actions',
    'Flags are board state: they persist across rounds, unlimited, only on concealed cells; at each round end every flag is judged (hit iff on a mine, fog flags never hit); placing/pulling emits nothing.',
  ),
  R(
    'R9',
    'Batch',
    'All intents go through settle_batch: re-ordered clearing dig < stop < others (stable), executed in order; the first round end decides and the rest are voided (no effect, no AP, no event). A one-intent batch equals the convenience call.',
  ),
  R(
    'R10',
    'Batch',
    'When the ledger decides a round end on the board path (exhausted or cleared), A2 emits all flag judgments then exactly one round_end copied from last_round_end; AP reaching 0 ends the round at once.',
  ),
  R(
    'R11',
    'Actions',
    'Digging a mine reports kind=mine, does not end the round, and leaves the cell open and walkable; it never counts toward clearing and cannot be dug or flagged again.',
  ),
  R(
    'R12',
    'Actions',
    'There is no chord/quick-open: clicking an open digit only moves the figure; the intent set is closed.',
  ),
  R(
    'F1',
    'Formulas',
    'cleared iff every safe cell is open (rem = 0); evaluated at install end (always false) and after each dig; clears_map is the same predicate.',
  ),
  R(
    'F2',
    'Formulas',
    'Chain closure: least fixed point opening N8(x) ∩ S \\ G from every open safe zero cell; chain_size counts cells beyond the dug one.',
  ),
  R(
    'F3',
    'Formulas',
    "Initial domain O0 = R0 = B3 plus the zero closure over safe cells, equal to the generator solver's initial view; R0 never meets a mine; R0 != S is required.",
  ),
  R(
    'F4',
    'Formulas',
    'Batch arbitration: semantic order C_dig < C_stop < C_other with stable order inside a class; winner = first round end; later intents voided; RAP follows the winner.',
  ),
  R('EC1', 'Edge cases', 'A board whose R0 is all of S is refused at install (inv4_r0_equals_s).'),
  R(
    'EC2',
    'Edge cases',
    'A board violating an invariant is refused with exactly one category and the state is unchanged.',
  ),
  R('EC3', 'Edge cases', 'Digging a flagged cell is refused (board_face/flag_present): pull the flag first.'),
  R(
    'EC4',
    'Edge cases',
    'A chain reaching a fog cell opens it for free with its true digit and fog mark, reward-eligible, and stops there.',
  ),
  R('EC5', 'Edge cases', 'A flag on a fog cell is legal, costs AP and is always judged hit=false.'),
  R(
    'EC6',
    'Edge cases',
    'Several round-ending intents in one batch are arbitrated by the semantic order; voided intents leave no trace.',
  ),
  R(
    'EC7',
    'Edge cases',
    'The last AP opening the last safe cell ends the round as cleared (not exhausted) and the leftover AP is not banked.',
  ),
  R('EC8', 'Edge cases', 'Changing variant tables after install changes nothing: the board is a snapshot.'),
  R(
    'EC9',
    'Edge cases',
    'Input outside the catalogue (off-board cell, unknown intent) is refused board_face/out_of_catalog with a debug diagnostic.',
  ),
  R(
    'EC10',
    'Edge cases',
    'Digging a mine: kind=mine event without digit, round continues, not reward-eligible, walkable; rem unchanged.',
  ),
  R(
    'EC11',
    'Edge cases',
    'Installing a new board resets flags, figure and opened cells and replays the initial expansion; retire_board ends the board.',
  ),
  R('EC12', 'Edge cases', 'Intents outside an Active phase are refused (phase) with no event and no change.'),
  R('EC13', 'Edge cases', 'Flag intents losing to a round-ending intent in the same batch are voided and not judged.'),
  R(
    'EC14',
    'Edge cases',
    'Move to a concealed or unreachable cell is refused; a move to the current cell is an accepted no-op; the path preview is empty for unreachable cells.',
  ),
  R('EC15', 'Edge cases', 'Several clearing digs in one batch: the first in arrival order wins, the rest are voided.'),
  R('EC16', 'Edge cases', 'Install during an Active round (outside refresh) and retire during Active are refused.'),
  R(
    'EC17',
    'Edge cases',
    'A chain front meeting a flag leaves the flagged cell concealed; cells only reachable through it stay concealed; chain_size counts only opened cells.',
  ),
];

const AC: Array<[string, string]> = [
  [
    'AC-1',
    'b_spawn install: only initial cell_revealed events, free, none reward-eligible, all safe, ordered as R0 by BFS; the 8th dig of the 8 concealed safe cells clears.',
  ],
  ['AC-1b', 'b_degenerate install refused with inv4_r0_equals_s; a following valid install is accepted.'],
  ['AC-2', 'Each b_invalid_* board is refused with its invariant category.'],
  ['AC-3', 'On b_chain and b_fog the initial domain equals R0 and lies in R0 plus one ring.'],
  [
    'AC-4',
    'A legal dig spends one dig price and emits one dig event; non-adjacent/open/flagged targets are refused with their sub_reason; try_dig equals the one-intent batch.',
  ],
  [
    'AC-5',
    'b_chain: the third dig cascades over the 13-cell set for 3 digs of AP, in BFS order; a flag at (2,5) blocks only itself.',
  ],
  [
    'AC-6',
    'b_fog: reachable fog opens by chain with true digits and fog marks and stops; unreachable fog is dug at full price.',
  ],
  [
    'AC-7',
    'Last AP on the last safe cell: exactly one cleared round_end equal to last_round_end; RAP unchanged, also with AP left.',
  ],
  [
    'AC-8',
    'A dig spending the last AP without clearing ends the round ap_exhausted; later intents are refused (phase).',
  ],
  ['AC-9', 'Stop banks the remaining AP; A3 emits the stopped round_end, A2 none; flag judgments come first.'],
  [
    'AC-10',
    'Batch arbitration over the six constructed cases a–f (clearing dig vs stop, stop vs exhausting dig, two clearing digs, joint clearing).',
  ],
  [
    'AC-11',
    'Flag place/pull/move-flag cost their prices with no event; digging a flagged cell and the flag refusals carry their sub_reasons.',
  ],
  [
    'AC-12',
    'Round-end judgments: hit on the mine flag, miss on the safe flag, pulled flags not judged, fog flags miss, repeated honestly each round.',
  ],
  ['AC-13', 'Flags persist into the next round without replaying the initial expansion; a new install clears them.'],
  [
    'AC-14',
    'Move path is deterministic through open cells; move is free and silent; concealed/unreachable targets refused; zero move accepted.',
  ],
  [
    'AC-15',
    'Digging a mine: mine event without digit, not reward-eligible, round continues; the figure can stand on it and dig beyond.',
  ],
  [
    'AC-16',
    'NoBoard/Frozen: every intent refused with phase and nothing changes; install/retire refused while Active.',
  ],
  ['AC-17', 'After retire every intent is refused; a new install starts clean from the new board.'],
  ['AC-18', 'Changing a variant table after install leaves the replayed event stream identical.'],
  ['AC-19', 'Two independently built b_fog boards driven by the same intents give identical event streams.'],
  ['AC-20', 'b_fog and b_fog_bare give streams that differ only in variant_ids.'],
  [
    'AC-21',
    'The three refusal sources are distinct: resource_face (price override), board_face with not_adjacent/flag_present, phase; off-board input gives out_of_catalog plus one debug diagnostic.',
  ],
  [
    'AC-22',
    'Static checks over the A2 sources: no randomness, no data-table loading, no economy reads, no UI dependency.',
  ],
];
for (const [id, s] of AC) rules.push(R(id, 'Acceptance criteria', s));

const uItems: UItem[] = [
  {
    id: 'U-M1',
    source: 'engine',
    owner: 'gplan-2 A2 designer',
    raised: '2026-11-29',
    rules: ['R2', 'F2', 'AC-5', 'AC-6'],
    question: 'Which channel do the cells of one dig carry?',
    default:
      'chain for every cell (the dug one included) when the dig opened more than one cell; dig when it opened exactly one.',
    why: 'AC-5 counts the whole cascade (13 = chain_size + 1) as channel=chain, AC-4/AC-6 call a single-cell dig channel=dig.',
  },
  {
    id: 'U-M2',
    source: 'engine',
    owner: 'gplan-2 A2 designer',
    raised: '2026-11-29',
    rules: ['F3', 'AC-1'],
    question: 'What is the canonical order of the initial expansion, whose domain is a 3x3 square plus its closure?',
    default:
      'A BFS from the spawn centre, where the figure lands: the centre, its 8 neighbours in row-major order, then onward breadth-first with row-major neighbours.',
    why: "The seed fixes the order as a BFS from the trigger cell with row-major neighbours. Invariant 1 keeps B3 mine-free, so the centre is a zero cell and a BFS from it opens all of B3 first: the set is exactly R0 and the centre is the one trigger the seed names for install (the figure's cell).",
  },
  {
    id: 'U-M3',
    source: 'engine',
    owner: 'gplan-2 B1 (orchestrator) designer',
    raised: '2026-11-29',
    rules: ['R3', 'EC11'],
    question: 'What does the refresh path cost and what happens to the round?',
    default:
      'rap_refresh_cost (1) is paid from RAP; the round continues with its AP; the new board is the next generated board (or the same fixture).',
    why: 'The seed names rap_refresh_cost and an Active-phase refresh that returns to the same board state, and leaves the rest to B1.',
  },
  {
    id: 'U-M4',
    source: 'engine',
    owner: 'gplan-2 B1 (orchestrator) designer',
    raised: '2026-11-29',
    rules: ['R10'],
    question: 'Who settles a round and opens the next one in a standalone game?',
    default: 'The B1 role does it inside the same action: settlement done, next board if new_board, round start.',
    why: 'B1 is undesigned in the seed; an automatic step keeps one decision kind for the seat.',
  },
  {
    id: 'U-M5',
    source: 'engine',
    owner: 'engine (arbiter standalone game)',
    raised: '2026-11-29',
    rules: ['F1'],
    question: 'When does a standalone game end?',
    default:
      'When `boards` boards (default 1) are cleared (a win), or after `max_rounds` rounds (default 20, no win). A dug mine never ends it.',
    why: 'The seed runs boards inside a larger roguelike run; a finite cap makes random play terminate.',
  },
  {
    id: 'U-M6',
    source: 'engine',
    owner: 'gplan-2 A2 designer',
    raised: '2026-11-29',
    rules: ['R9', 'F4'],
    question: 'What happens to an intent of a batch that is refused when its turn comes?',
    default:
      'It is reported rejected (with its source) and the batch goes on; the ruleset refuses a batch only when none of its intents executes.',
    why: 'ActionOutcome is per intent; a refusal has zero effects, so it cannot end the round.',
  },
  {
    id: 'U-M7',
    source: 'engine',
    owner: 'gplan-2 A2 designer',
    raised: '2026-11-29',
    rules: ['R3', 'EC2'],
    question: 'In which order are the invariants checked when a board breaks several?',
    default: '1, 2a, 3, 2b, 4 — the first violated one is reported (fail-fast).',
    why: '2b and 4 need R0, which needs the digits that invariant 3 vouches for.',
  },
  {
    id: 'U-M8',
    source: 'engine',
    owner: 'gplan-2 A3 (ledger) designer',
    raised: '2026-11-29',
    rules: ['R10'],
    question: 'Does a flag action that spends the last AP end the round?',
    default: 'Yes: ap_exhausted on the board path, judgments first.',
    why: 'The seed says AP reaching zero ends the round at once (no zero-AP window), not only for digs.',
  },
  {
    id: 'U-M9',
    source: 'engine',
    owner: 'engine (arbiter engine contract)',
    raised: '2026-11-29',
    rules: ['EC9', 'AC-21'],
    question: 'How does the engine contract code an off-board cell?',
    default:
      "A2 checks it (read-only, the same check settle_batch runs) and answers board_face/out_of_catalog with a debug diagnostic. A single intent is then refused bad_request with detail {reject_reason, sub_reason, diagnostics}; inside a batch it is that intent's outcome and the diagnostic lands in run.diagnostics and the view.",
    why: 'The house rule makes out-of-range input bad_request; the seed sub_reason and the diagnostic (never swallowed, EC9) travel with it.',
  },
  {
    id: 'U-M10',
    source: 'engine',
    owner: 'gplan-2 D1 (presentation) designer',
    raised: '2026-11-29',
    rules: ['R2'],
    question: "What does the seat's view show of fog?",
    default:
      'Concealed fog cells are marked (%), opened fog cells show no digit (~); events still carry the true digit.',
    why: 'The seed requires the four cell looks to be distinguishable and opened fog to show no number.',
  },
  {
    id: 'U-M11',
    source: 'engine',
    owner: 'gplan-2 A3 (ledger) designer',
    raised: '2026-11-29',
    rules: ['AC-16'],
    question: 'Is a board installed before the first round start (ledger Idle) Active or Frozen?',
    default: 'Frozen: intents are refused with phase; install/retire are accepted.',
    why: 'Board states follow the ledger phase; only Active accepts intents.',
  },
  {
    id: 'U-M12',
    source: 'engine',
    owner: 'gplan-2 A2 designer',
    raised: '2026-12-01',
    rules: ['F2', 'R6', 'EC17'],
    question:
      'F2 read literally closes over every open zero cell (X contains O), so after a flag that blocked a chain is pulled, any later dig anywhere would also open the cell the flag protected; the prose (and AC-5 branch 2) starts the chain at the dug cell. Which reading?',
    default:
      'The prose: a dig spreads only from the dug cell through concealed, unflagged safe cells; a cell once shielded by a flag stays concealed after the pull until it is dug or reached by a later chain from a dug zero cell.',
    why: 'The seed calls per-dig evaluation equivalent to one full closure, which holds only while flags are never pulled; the prose, the canonical order (BFS from the trigger) and chain_size (cells beyond the dug one) all describe a chain that starts at the dug cell.',
  },
];

export const catalog: Catalog = {
  rules,
  uItems,
  findings: [
    {
      id: 'FD-M1',
      kind: 'seed-constant',
      state: 'open',
      reproduction: 'test/mines/ac05-chain.test.ts',
      role: 'AC-5 branch 2',
      raised: '2026-11-29',
      owner: 'mines',
      summary:
        'AC-5 branch 2 registers chain_size=12 with a flag on (2,5); the careful derivation gives 11 (12 cells open, the dug one included: |C|=13 minus the flagged cell, and chain_size excludes the dug cell). The engine reports 11.',
    },
    {
      id: 'FD-M2',
      kind: 'seed-construction',
      state: 'open',
      reproduction: 'test/mines/ac10-batch.test.ts',
      role: 'AC-10f',
      raised: '2026-11-29',
      owner: 'mines',
      summary:
        'AC-10f says one round (dig mine (1,2), clear the x=0 column, stop) reaches "concealed = {(0,3),(1,3)}": it takes 8 AP (two mines must be dug to reach both halves of the column), which exhausts the round before a stop; the test spreads it over two stopped rounds.',
    },
    {
      id: 'FD-M3',
      kind: 'seed-construction',
      state: 'open',
      reproduction: 'test/mines/ac14-move.test.ts',
      role: 'AC-14 case 2',
      raised: '2026-11-29',
      owner: 'mines',
      summary:
        "AC-14 asks for a move to an open cell with no BFS path. In play the open set stays 8-connected (every opened cell touches the figure's cell or a chain source), so no_path cannot arise; it remains as defence in depth and the test builds the position directly.",
    },
  ],
};
