// What each seat may see (U22): its own hand and choice; for others only hand sizes and whether
// they have committed; face-down Problems never seen face up stay anonymous. `secrets` lists what
// must not leak, for the conformance suite.

import type { Json } from '../../kernel/index.ts';
import { SUITS, type GroundState, type ModeId, type PlayerState, type RoundState } from './state.ts';

/** One player as the viewing seat sees it: its hand only its own, choices once they are public. */
export type GroundViewPlayer = {
  seat: number;
  stress: number;
  freedom: PlayerState['freedom'];
  darvo: PlayerState['darvo'];
  darvoEnding: PlayerState['darvoEnding'];
  reverseTarget: PlayerState['reverseTarget'];
  token: PlayerState['token'];
  protection: PlayerState['protection'];
  claimed: number[];
  handSize: number;
  committed: boolean;
  hand?: GroundHand;
  choice?: NonNullable<PlayerState['choice']>;
  ground?: NonNullable<PlayerState['ground']>;
};

/** The viewing seat's own hand: how many Solutions of each suit it holds. */
export type GroundHand = { seat: number; Clarify: number; Repair: number; Boundary: number; Change: number };

/** A Problem slot: anonymous until it has been seen face up, then with its card. */
export type GroundViewProblem = {
  slot: number;
  faceUp: boolean;
  denied: boolean;
  priority?: number;
  claimedBy?: number | null;
  card?: { slot: number; id: string; name: string; suit: string; value: number };
};

/** What a seat (or a spectator, `seat` null) sees of the table (U22); boards and samplers read it. */
export type GroundView = {
  seat: number | null;
  edition: string;
  scenario: string;
  mode: ModeId;
  threshold: number;
  round: number;
  lead: number;
  phase: GroundState['phase'];
  players: GroundViewPlayer[];
  problems: GroundViewProblem[];
  relations: { a: number; b: number; kind: 'bond' | 'rivalry' }[];
  deckSize: number;
  discardSize: number;
  resolution: RoundState;
  decision?: NonNullable<GroundState['decision']>;
};

function handObject(s: GroundState, seat: number): GroundHand {
  const h = s.players[seat].hand;
  return { seat, Clarify: h[0], Repair: h[1], Boundary: h[2], Change: h[3] };
}

function problemCard(s: GroundState, slot: number): NonNullable<GroundViewProblem['card']> {
  const pr = s.problems[slot];
  return { slot, id: pr.id, name: pr.name, suit: SUITS[pr.suit], value: pr.value };
}

function choiceJson(s: GroundState, seat: number): NonNullable<PlayerState['choice']> {
  const c = s.players[seat].choice!;
  return { seat: c.seat, action: c.action, target: c.target, freedom: c.freedom };
}

function groundJson(s: GroundState, seat: number): NonNullable<PlayerState['ground']> {
  const g = s.players[seat].ground!;
  return { seat: g.seat, mode: g.mode, option: g.option, target: g.target };
}

/** Choices are public once every seat has committed (Reveal); GROUND modes once resolution starts. */
function choicesPublic(s: GroundState): boolean {
  return s.phase !== 'select';
}

export function view(s: GroundState, seat: number | null): GroundView {
  const n = s.n;
  const relations: GroundView['relations'] = [];
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const r = s.rel[a * n + b];
      if (r !== 0) relations.push({ a, b, kind: r === 1 ? 'bond' : 'rivalry' });
    }
  }
  const players = s.players.map((p, i): GroundViewPlayer => {
    const mine = seat === i;
    const out: GroundViewPlayer = {
      seat: i,
      stress: p.stress,
      freedom: p.freedom,
      darvo: p.darvo,
      darvoEnding: p.darvoEnding,
      // who this seat's REVERSE will target: public, the ATTACK stage's Attack was made in the open (U22)
      reverseTarget: p.reverseTarget,
      token: { side: p.token.side, at: p.token.at },
      protection: p.protection,
      claimed: p.claimed.slice(),
      handSize: p.hand[0] + p.hand[1] + p.hand[2] + p.hand[3],
      committed: p.choice !== null,
    };
    if (mine) out.hand = handObject(s, i);
    if (p.choice !== null && (mine || choicesPublic(s))) out.choice = choiceJson(s, i);
    if (p.ground !== null && (mine || s.phase === 'resolve' || s.phase === 'over')) out.ground = groundJson(s, i);
    return out;
  });
  const problems = s.problems.map((pr): GroundViewProblem => {
    if (!pr.known) return { slot: pr.slot, faceUp: false, denied: pr.denied };
    return {
      slot: pr.slot,
      faceUp: pr.faceUp,
      denied: pr.denied,
      priority: pr.priority,
      card: problemCard(s, pr.slot),
      claimedBy: pr.claimedBy,
    };
  });
  const v: GroundView = {
    seat,
    edition: s.edition,
    scenario: s.scenario,
    mode: s.mode,
    threshold: s.threshold,
    round: s.round,
    lead: s.lead,
    phase: s.phase,
    players,
    problems,
    relations,
    deckSize: s.deck.length,
    discardSize: s.discard.length,
    // the Resolve step's bookkeeping is public (everything in it was revealed at the table); search
    // agents need it to rebuild a state from a view (issue 15)
    resolution: {
      step: s.rs.step,
      i: s.rs.i,
      newBonds: s.rs.newBonds.slice(),
      ouCancel: s.rs.ouCancel.slice(),
      protectedSlots: s.rs.protectedSlots.slice(),
      ndReject: s.rs.ndReject.slice(),
    },
  };
  if (s.decision !== null) {
    const d = s.decision;
    v.decision = { seat: d.seat, kind: d.kind, from: d.from, options: d.options.slice() };
  }
  return v;
}

export function secrets(s: GroundState, seat: number | null): Json[] {
  const out: Json[] = [];
  // Problems nobody has seen: their identity (card object, id and name) is secret from everyone
  for (const pr of s.problems) {
    if (pr.known) continue;
    out.push(problemCard(s, pr.slot));
    if (pr.id.length >= 6) out.push(pr.id);
    if (pr.name.length >= 6) out.push(pr.name);
  }
  for (let i = 0; i < s.n; i++) {
    if (i === seat) continue;
    out.push(handObject(s, i));
    if (s.players[i].choice !== null && !choicesPublic(s)) out.push(choiceJson(s, i));
    if (s.players[i].ground !== null && s.phase === 'ground') out.push(groundJson(s, i));
  }
  return out;
}
