// The plain-JSON shape of a duel game. Every field is always present (null when idle), so the
// key order of a state never depends on the path that produced it.

import type { RngState } from '../../kernel/index.ts';

export const CORP = 0;
export const RUNNER = 1;

/** The seed's turn frame: exactly the fields TurnFrameValid5 names. */
export interface Frame {
  owner: number;
  phase: string;
  id: number;
  formalBegun: boolean;
  formalEnded: boolean;
  begunCounts: number[];
}

export type ActionStatus = 'CostReactions' | 'Effects' | 'Nested' | 'Complete';

/** An action frame: cost/effect status plus the child it waits on (0 = none). */
export interface ActionFrame {
  id: number;
  owner: number;
  kind: string;
  card: string | null;
  status: ActionStatus;
  child: number;
  /** 1 once the action's own effect instruction has run. */
  fx: number;
}

/** A triggered ability waiting to resolve: its source card and the seat that holds it. */
export interface Ability {
  src: string;
  who: number;
}

/** A priority window: paid abilities, or a reaction window holding a fixed set of abilities. */
export interface Window {
  kind: 'paid' | 'react';
  prio: number;
  /** The seat that held priority last passed (two passes in a row close a paid window). */
  passed: boolean;
  abilities: Ability[];
}

/** The run: the nested child structure of a run action. */
export interface Run {
  id: number;
  stage: 'ini' | 'app' | 'suc' | 'brc' | 'end';
  success: boolean;
}

export interface ScoreItem {
  card: string;
  pts: number;
}

export interface HeapItem {
  card: string;
  up: boolean;
}

export interface SeatState {
  clicks: number;
  credits: number;
  deck: string[];
  hand: string[];
  heap: HeapItem[];
  score: ScoreItem[];
  installed: string[];
}

/** Deliberately broken engine behaviours, for proving that the checks catch them. */
export type Variant =
  | 'handoff_resets_counts'
  | 'return_any_receipt'
  | 'neg_limit_before_skip'
  | 'effects_before_drain'
  | 'effects_skip_reactions'
  | 'winners_after_drain'
  | 'directed_skips_checkpoint'
  | 'damage_not_strict';

export interface RuntimeConfig {
  clicks: number[];
  maxHand: number[];
  turns: number;
  variant: Variant | null;
  /** Cards per side at setup (for the conservation invariant). */
  cards: number[];
}

export interface Ask {
  seat: number;
  kind: string;
  count: number;
}

export interface DuelState {
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
}

export interface DuelAction {
  do: string;
  card?: string;
  src?: string;
  cards?: string[];
}
