// Invariants every reachable GROUND state keeps and contracts on every transition; the conformance
// suite, exploration and tests check them.

import type { GameEvent } from '../../kernel/index.ts';
import { BOND, NONE, RIVALRY, type GroundGameAction, type GroundState } from './state.ts';

export function invariants(s: GroundState): string[] {
  const bad: string[] = [];
  const n = s.n;
  let cards = s.deck.length + s.discard.length;
  for (let i = 0; i < n; i++) {
    const p = s.players[i];
    if (!Number.isInteger(p.stress) || p.stress < 0 || p.stress > 5)
      bad.push(`GR-F01: seat ${i} Stress ${p.stress} outside 0–5`);
    let rels = 0;
    for (let q = 0; q < n; q++) {
      const r = s.rel[i * n + q];
      if (r !== s.rel[q * n + i]) bad.push(`GR-O05: relation ${i}-${q} is not symmetric`);
      if (r !== NONE && r !== BOND && r !== RIVALRY) bad.push(`GR-O05: bad relation code ${r}`);
      if (q === i && r !== NONE) bad.push(`GR-O05: seat ${i} related to itself`);
      if (r !== NONE) rels++;
    }
    if (rels > 2) bad.push(`GR-L01: seat ${i} holds ${rels} relations (2 slots)`);
    cards += p.hand[0] + p.hand[1] + p.hand[2] + p.hand[3];
    if (p.darvo === 'OFF' && p.token.side === 'focus' && p.token.at >= 0 && s.phase !== 'resolve')
      bad.push(`GR-D06: seat ${i} Focus placed with DARVO OFF`);
  }
  for (const pr of s.problems) {
    if (pr.denied && pr.faceUp) bad.push(`GR-D03: Problem ${pr.slot} is Denied but face up`);
    if (pr.claimedBy >= 0 && (!pr.faceUp || pr.denied))
      bad.push(`GR-P01: Problem ${pr.slot} claimed while not face up`);
  }
  if (cards !== 24) bad.push(`GR-S04: ${cards} Solution cards in the game, not 24`);
  if (s.round < 1 || s.round > 5) bad.push(`GR-O01: round ${s.round}`);
  return bad;
}

/**
 * Contracts on one transition (conformance and exploration call this): Stress moves only through
 * `stress` events and ends where the last one says; a committed choice stays put until End; a
 * claim is never undone; rounds only move forward.
 */
export function checkTransition(
  before: GroundState,
  after: GroundState,
  seat: number,
  _action: GroundGameAction,
  events: readonly GameEvent[],
): string[] {
  const bad: string[] = [];
  const lastStress = new Map<number, number>();
  let ended = false;
  for (const e of events) {
    if (e.type === 'stress' && typeof e.seat === 'number' && typeof e.to === 'number') lastStress.set(e.seat, e.to);
    if (e.type === 'round_ended') ended = true;
  }
  for (let i = 0; i < after.n; i++) {
    const want = lastStress.get(i) ?? before.players[i].stress;
    if (after.players[i].stress !== want)
      bad.push(
        `GR-F01: seat ${i} Stress ${before.players[i].stress} → ${after.players[i].stress} but its stress events end at ${want}`,
      );
    const c0 = before.players[i].choice;
    const c1 = after.players[i].choice;
    if (
      !ended &&
      c0 !== null &&
      (c1 === null || c1.action !== c0.action || c1.target !== c0.target || c1.freedom !== c0.freedom)
    ) {
      bad.push(`GR-R02: seat ${i}'s committed choice changed within the round`);
    }
  }
  for (const pr of before.problems) {
    if (pr.claimedBy >= 0 && after.problems[pr.slot].claimedBy !== pr.claimedBy)
      bad.push(`GR-P03: Problem ${pr.slot} lost its claim`);
  }
  if (after.round < before.round) bad.push(`GR-R08: round went back from ${before.round} to ${after.round}`);
  if (before.phase === 'select' && before.players[seat].choice !== null)
    bad.push(`GR-R02: seat ${seat} acted after committing`);
  return bad;
}
