// A2's closed vocabularies: intents in, exactly three event kinds out, typed refusals.

export type Cell = [number, number];
type IntentType = 'dig' | 'flag_place' | 'flag_pull' | 'move' | 'stop';
export const INTENT_TYPES: readonly IntentType[] = ['dig', 'flag_place', 'flag_pull', 'move', 'stop'];
export type CellIntentType = Exclude<IntentType, 'stop'>;

/** One intent: a cell intent names its target [x, y]; stop names none. */
export type Intent = { type: CellIntentType; cell: Cell } | { type: 'stop' };

export type Channel = 'initial' | 'chain' | 'dig';

/** A safe cell carries its true digit, fog or not (presentation hides it, data never lies). */
type SafeRevealed = {
  type: 'cell_revealed';
  cell: Cell;
  kind: 'safe';
  digit: number;
  variant_ids: string[];
  channel: Channel;
  reward_eligible: boolean;
};

/** A dug mine carries no digit field at all. */
type MineRevealed = {
  type: 'cell_revealed';
  cell: Cell;
  kind: 'mine';
  variant_ids: string[];
  channel: Channel;
  reward_eligible: false;
};

export type CellRevealed = SafeRevealed | MineRevealed;

type FlagJudged = {
  type: 'flag_judged';
  cell: Cell;
  hit: boolean;
};

type RoundEnd = {
  type: 'round_end';
  path_tag: 'ap_exhausted' | 'cleared' | 'stopped';
  continuation_hint: 'same_board' | 'new_board';
};

export type MinesEvent = CellRevealed | FlagJudged | RoundEnd;

/** Which emitter produced an event: A2's board path, or A3's direct stopped round_end. */
export type Face = 'a2' | 'a3';

type RejectReason = 'board_face' | 'resource_face' | 'phase' | 'board_invalid';
export type SubReason =
  | 'not_adjacent'
  | 'target_revealed'
  | 'target_concealed'
  | 'flag_present'
  | 'flag_absent'
  | 'no_path'
  | 'out_of_catalog';

export type InvariantCategory =
  | 'inv1_mine_in_spawn'
  | 'inv2a_variant_in_spawn'
  | 'inv2b_variant_in_r0'
  | 'inv3_digit_invariant'
  | 'inv4_r0_equals_s';

export type ActionOutcome = {
  accepted: boolean;
  outcome: 'executed' | 'voided' | 'rejected';
  reject_reason: RejectReason | null;
  /** Only with reject_reason board_face. */
  sub_reason: SubReason | null;
};

export type InstallResult = {
  accepted: boolean;
  reject_reason: RejectReason | null;
  category: InvariantCategory | null;
};

export type Diagnostic = {
  level: 'error' | 'debug';
  category: string;
  message: string;
};

/** Where A2 sends what it produces: events (with their emitter) and diagnostics. */
export interface Sink {
  emit(e: MinesEvent, face: Face): void;
  diagnose(d: Diagnostic): void;
}
