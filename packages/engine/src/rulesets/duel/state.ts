// The plain-JSON shape of a duel game. Every field is always present (null when idle), so the
// key order of a state never depends on the path that produced it.

import type { RngState } from '../../kernel/index.ts';

export const CORP = 0;
export const RUNNER = 1;

/** The seed's turn frame: exactly the fields TurnFrameValid5 names. */
export type Frame = {
  owner: number;
  phase: string;
  id: number;
  formalBegun: boolean;
  formalEnded: boolean;
  begunCounts: number[];
};

type ActionStatus = 'CostReactions' | 'Effects' | 'Nested' | 'Complete';

/** An action frame: cost/effect status plus the child it waits on (0 = none). */
export type ActionFrame = {
  id: number;
  owner: number;
  kind: string;
  card: string | null;
  status: ActionStatus;
  child: number;
  /** 1 once the action's own effect instruction has run. */
  fx: number;
};

/** A triggered ability waiting to resolve: its source card and the seat that holds it. */
export type Ability = {
  src: string;
  who: number;
};

/** A priority window: paid abilities, or a reaction window holding a fixed set of abilities. */
export type Window = {
  kind: 'paid' | 'react';
  prio: number;
  /** The seat that held priority last passed (two passes in a row close a paid window). */
  passed: boolean;
  abilities: Ability[];
};

/** The run: the nested child structure of a run action. */
export type Run = {
  id: number;
  stage: 'ini' | 'ice' | 'app' | 'suc' | 'brc' | 'end';
  success: boolean;
  /** The ICE being encountered (index into `ice`, outermost last); -1 when not at ICE. */
  pos: number;
};

export type ScoreItem = {
  card: string;
  pts: number;
};

export type HeapItem = {
  card: string;
  up: boolean;
};

export type SeatState = {
  clicks: number;
  credits: number;
  deck: string[];
  hand: string[];
  heap: HeapItem[];
  score: ScoreItem[];
  installed: string[];
};

/** Deliberately broken engine behaviours, for proving that the checks catch them. */
export type Variant =
  | 'handoff_resets_counts'
  | 'return_any_receipt'
  | 'neg_limit_before_skip'
  | 'effects_before_drain'
  | 'effects_skip_reactions'
  | 'winners_after_drain'
  | 'directed_skips_checkpoint'
  | 'damage_not_strict'
  // variants only the closed contract gaps catch (issue 10)
  | 'done_without_complete'
  | 'steal_opens_window'
  | 'windows_before_checkpoint'
  | 'decking_not_fatal'
  | 'react_window_closes_early'
  | 'free_advance'
  | 'points_ignore_tokens'
  | 'free_break'
  // variants only the issue-28 contracts catch
  | 'score_checkpoint_if_winning'
  | 'begin_trigger_second_copy';

type RuntimeConfig = {
  clicks: number[];
  maxHand: number[];
  turns: number;
  variant: Variant | null;
  /** Cards per side at setup (for the conservation invariant). */
  cards: number[];
  /** Points of the start token per seat (the checker counts points from the config, not the items). */
  startPoints: number[];
};

export type Ask = {
  seat: number;
  kind: string;
  count: number;
};

export type DuelState = {
  cfg: RuntimeConfig;
  rng: RngState;
  turn: Frame;
  /** The current step of the turn procedure (see steps in engine.ts). */
  step: string;
  /** Next fresh structure id; frames, actions and runs share this counter (U-ids). */
  next: number;
  p: SeatState[];
  /** The corp's remote server: at most one installed agenda, face down. */
  remote: { card: string; adv: number } | null;
  /** ICE protecting the remote, innermost first (a run meets the last one first). */
  ice: string[];
  /** Runner's core damage: each point lowers its maximum hand size by one. */
  core: number;
  /** The runner skips its next discard step. */
  skip: boolean;
  /** A directed (terminal) end of the action phase has been requested. */
  directed: boolean;
  action: ActionFrame | null;
  run: Run | null;
  /** The id of the last child structure that completed (its completion receipt). */
  receipt: number;
  /** A damage instruction waiting to be dealt. */
  dmg: { n: number; core: boolean } | null;
  cpDue: boolean;
  queue: Ability[];
  win: Window[];
  ask: Ask | null;
  /** Turn frames opened so far (including the current one). */
  turns: number;
  result: { winners: number[]; reason: string } | null;
};

/** A decision, tagged by `type` (the kernel convention); every menu element is one of these. */
export type DuelAction =
  | { type: 'credit' }
  | { type: 'draw' }
  | { type: 'advance' }
  | { type: 'run' }
  | { type: 'install'; card: string }
  | { type: 'play'; card: string }
  | { type: 'score' }
  | { type: 'pass' }
  | { type: 'resolve'; src: string }
  | { type: 'continue' }
  | { type: 'jack_out' }
  | { type: 'break' }
  | { type: 'fire' }
  | { type: 'discard'; cards: string[] };

/** The actions that start an action frame at the action window (each costs a click). */
export type ClickAction = Extract<DuelAction, { type: 'credit' | 'draw' | 'advance' | 'run' | 'install' | 'play' }>;
