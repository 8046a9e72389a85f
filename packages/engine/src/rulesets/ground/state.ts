// The plain-JSON shapes of a GROUND game: state, actions and decisions. Numbers index seats,
// suits and Problem slots so that apply and legal stay cheap (no string lookups on hot paths).

import { cloneRng, type StreamState } from '../../kernel/index.ts';

/** The four Solution suits, fixed by the rules (GR-O04); hands count cards per suit in this order. */
export const SUITS = ['Clarify', 'Repair', 'Boundary', 'Change'] as const;

export const ACTIONS = ['INVESTIGATE', 'SOLVE', 'SUPPORT', 'ATTACK', 'GROUND'] as const;
export type ActionName = (typeof ACTIONS)[number];

export const MODES = ['shared-ground', 'personal-edge', 'bonded-coalitions'] as const;
export type ModeId = (typeof MODES)[number];

type Marker = 'OFF' | 'DENY' | 'ATTACK' | 'REVERSE';

/** Relation codes in the symmetric n×n `rel` matrix. */
export const NONE = 0;
export const BOND = 1;
export const RIVALRY = 2;

type Token = {
  /** Focus side (own, or placed during own DARVO) or Blame side (in front of a REVERSE target). */
  side: 'focus' | 'blame';
  /** The seat it lies in front of / beside; -1 while unplaced. */
  at: number;
};

/** A committed Select choice. `seat` is part of it so two seats' equal choices stay distinct. */
type Choice = {
  seat: number;
  action: ActionName;
  /** Seat (SUPPORT/ATTACK) or Problem slot (INVESTIGATE/SOLVE); -1 when the Action has none. */
  target: number;
  freedom: boolean;
};

/** GROUND's mode and target, chosen after Reveal (GR-R05). */
type GroundChoice = {
  seat: number;
  mode: 'GR' | 'OU' | 'ND';
  /** OU: restore | cancel | protect; ND: remove_blame | break | reject_reverse; GR: none. */
  option: string;
  /** Problem slot (restore/protect) or seat (cancel/remove_blame/break/reject_reverse); -1 for GR. */
  target: number;
};

export type PlayerState = {
  stress: number;
  freedom: 'READY' | 'SPENT';
  darvo: Marker;
  /** GROUND—GR was resolved this round while the sequence was active: it ends after this round's stage (GR-A10). */
  darvoEnding: boolean;
  /** Where the DARVO ATTACK stage pointed: the REVERSE target (GR-D04); -1 if none. */
  reverseTarget: number;
  token: Token;
  /** Solution cards held, counted per suit (SUITS order). */
  hand: number[];
  /** Problem slots this player claimed, in claim order. */
  claimed: number[];
  protection: number;
  choice: Choice | null;
  ground: GroundChoice | null;
};

export type Problem = {
  slot: number;
  id: string;
  name: string;
  suit: number;
  value: number;
  /** 0 for the Surface Problem, 1–4 for hidden Problems. */
  priority: number;
  faceUp: boolean;
  denied: boolean;
  /** Seat that claimed it, or -1. */
  claimedBy: number;
  /** Has ever been face up (a Denied Problem stays known to the table). */
  known: boolean;
};

/** A mid-resolution decision the state waits on (plain JSON). */
type Decision = {
  seat: number;
  kind: 'bond_accept' | 'rivalry_choice' | 'deny_target' | 'darvo_attack_target';
  /** The other player involved (supporter), or -1. */
  from: number;
  /** The enumerated choices (Problem slots or seats), where the kind has them. */
  options: number[];
};

/** Per-round bookkeeping of the Resolve step; reset at End. */
export type RoundState = {
  /** Resolution step 1..6 (GR-R06) and the position in Lead order within it. */
  step: number;
  i: number;
  /** Pair keys (a*n+b, a<b) of Bonds formed or flipped to Bond this round (GR-L05). */
  newBonds: number[];
  /** GROUND—OU cancellations waiting for an Attack: [defender, attacker] pairs, removed when used. */
  ouCancel: number[];
  /** Problem slots GROUND—OU protected from Deny this round. */
  protectedSlots: number[];
  /** GROUND—ND rejections: [defender, reverse owner] pairs. */
  ndReject: number[];
};

export type GroundState = {
  edition: string;
  scenario: string;
  mode: ModeId;
  n: number;
  threshold: number;
  round: number;
  lead: number;
  phase: 'select' | 'ground' | 'resolve' | 'over';
  players: PlayerState[];
  problems: Problem[];
  /** Solution deck and discard as suit indexes, top of deck last. */
  deck: number[];
  discard: number[];
  /** Symmetric relation matrix, rel[a*n+b]: 0 none, 1 Bond, 2 Rivalry. */
  rel: number[];
  rs: RoundState;
  decision: Decision | null;
  /** The kernel generator's state (structurally a kernel RngState), kept as a type alias so the state is Json. */
  rng: { seed: number; streams: Record<string, StreamState> };
};

// ----- actions (what seats submit) -----

export type SelectAction = {
  type: 'select';
  action: ActionName;
  target: number | null;
  freedom: boolean;
};
export type GroundAction = {
  type: 'ground';
  mode: 'GR' | 'OU' | 'ND';
  option: string | null;
  target: number | null;
};
export type BondAction = { type: 'bond'; accept: boolean };
export type RivalryAction = { type: 'rivalry'; choice: 'flip' | 'break' };
export type DenyAction = { type: 'deny'; problem: number };
export type DarvoAttackAction = { type: 'darvo_attack'; target: number };

export type GroundGameAction =
  | SelectAction
  | GroundAction
  | BondAction
  | RivalryAction
  | DenyAction
  | DarvoAttackAction;

/** A field-by-field deep copy (faster than generic JSON cloning on the hot path). */
export function clone(s: GroundState): GroundState {
  return {
    edition: s.edition,
    scenario: s.scenario,
    mode: s.mode,
    n: s.n,
    threshold: s.threshold,
    round: s.round,
    lead: s.lead,
    phase: s.phase,
    players: s.players.map(clonePlayer),
    problems: s.problems.map((pr) => ({ ...pr })),
    deck: s.deck.slice(),
    discard: s.discard.slice(),
    rel: s.rel.slice(),
    rs: {
      step: s.rs.step,
      i: s.rs.i,
      newBonds: s.rs.newBonds.slice(),
      ouCancel: s.rs.ouCancel.slice(),
      protectedSlots: s.rs.protectedSlots.slice(),
      ndReject: s.rs.ndReject.slice(),
    },
    decision: s.decision === null ? null : { ...s.decision, options: s.decision.options.slice() },
    rng: cloneRng(s.rng),
  };
}

function clonePlayer(p: PlayerState): PlayerState {
  return {
    stress: p.stress,
    freedom: p.freedom,
    darvo: p.darvo,
    darvoEnding: p.darvoEnding,
    reverseTarget: p.reverseTarget,
    token: { side: p.token.side, at: p.token.at },
    hand: p.hand.slice(),
    claimed: p.claimed.slice(),
    protection: p.protection,
    choice: p.choice === null ? null : { ...p.choice },
    ground: p.ground === null ? null : { ...p.ground },
  };
}
