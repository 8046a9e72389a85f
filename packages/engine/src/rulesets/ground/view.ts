// What each seat may see (U22): its own hand and choice; for others only hand sizes and whether
// they have committed; face-down Problems never seen face up stay anonymous. `secrets` lists what
// must not leak, for the conformance suite.

import type { Json } from '../../kernel/index.ts';
import { SUITS, type GroundState } from './state.ts';

function handObject(s: GroundState, seat: number): Json {
  const h = s.players[seat].hand;
  return { seat, Clarify: h[0], Repair: h[1], Boundary: h[2], Change: h[3] };
}

function problemCard(s: GroundState, slot: number): Json {
  const pr = s.problems[slot];
  return { slot, id: pr.id, name: pr.name, suit: SUITS[pr.suit], value: pr.value };
}

function choiceJson(s: GroundState, seat: number): Json {
  const c = s.players[seat].choice!;
  return { seat: c.seat, action: c.action, target: c.target, freedom: c.freedom };
}

function groundJson(s: GroundState, seat: number): Json {
  const g = s.players[seat].ground!;
  return { seat: g.seat, mode: g.mode, option: g.option, target: g.target };
}

/** Choices are public once every seat has committed (Reveal); GROUND modes once resolution starts. */
function choicesPublic(s: GroundState): boolean {
  return s.phase !== 'select';
}

export function viewOf(s: GroundState, seat: number | null): Json {
  const n = s.n;
  const relations: Json[] = [];
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const r = s.rel[a * n + b];
      if (r !== 0) relations.push({ a, b, kind: r === 1 ? 'bond' : 'rivalry' });
    }
  }
  const players: Json[] = s.players.map((p, i) => {
    const mine = seat === i;
    const out: Record<string, Json> = {
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
  const problems: Json[] = s.problems.map((pr): Json => {
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
  const v: Record<string, Json> = {
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

export function secretsFor(s: GroundState, seat: number | null): Json[] {
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
