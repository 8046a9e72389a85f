// A2's closed vocabularies: intents in, exactly three event kinds out, typed refusals.

export type Cell = [number, number];
export type IntentType = 'dig' | 'flag_place' | 'flag_pull' | 'move' | 'stop';
export const INTENT_TYPES: readonly IntentType[] = ['dig', 'flag_place', 'flag_pull', 'move', 'stop'];

export interface Intent {
  type: IntentType;
  /** Target cell [x, y]; absent for stop. */
  cell?: Cell;
}

export type Channel = 'initial' | 'chain' | 'dig';

export interface CellRevealed {
  type: 'cell_revealed';
  cell: Cell;
  kind: 'safe' | 'mine';
  /** Only on safe cells: the true count, fog or not (presentation hides it, data never lies). */
  digit?: number;
  variant_ids: string[];
  channel: Channel;
  reward_eligible: boolean;
}

export interface FlagJudged {
  type: 'flag_judged';
  cell: Cell;
  hit: boolean;
}

export interface RoundEnd {
  type: 'round_end';
  path_tag: 'ap_exhausted' | 'cleared' | 'stopped';
  continuation_hint: 'same_board' | 'new_board';
}

export type MinesEvent = CellRevealed | FlagJudged | RoundEnd;

/** Which emitter produced an event: A2's board path, or A3's direct stopped round_end. */
export type Face = 'a2' | 'a3';

export type RejectReason = 'board_face' | 'resource_face' | 'phase' | 'board_invalid';
export type SubReason =
  | 'not_adjacent'
  | 'target_revealed'
  | 'target_concealed'
  | 'flag_present'
  | 'flag_absent'
  | 'no_path'
  | 'out_of_catalog';
export const SUB_REASONS: readonly SubReason[] = [
  'not_adjacent', 'target_revealed', 'target_concealed', 'flag_present', 'flag_absent', 'no_path', 'out_of_catalog',
];

export type InvariantCategory =
  | 'inv1_mine_in_spawn'
  | 'inv2a_variant_in_spawn'
  | 'inv2b_variant_in_r0'
  | 'inv3_digit_invariant'
  | 'inv4_r0_equals_s';

export interface ActionOutcome {
  accepted: boolean;
  outcome: 'executed' | 'voided' | 'rejected';
  reject_reason: RejectReason | null;
  /** Only with reject_reason board_face. */
  sub_reason: SubReason | null;
}

export interface InstallResult {
  accepted: boolean;
  reject_reason: RejectReason | null;
  category: InvariantCategory | null;
}

export interface Diagnostic {
  level: 'error' | 'debug';
  category: string;
  message: string;
}

/** Where A2 sends what it produces: events (with their emitter) and diagnostics. */
export interface Sink {
  emit(e: MinesEvent, face: Face): void;
  diagnose(d: Diagnostic): void;
}
