// The transition: Select commits, Reveal, GROUND choices, the six Resolve steps in Lead order,
// mid-resolution decisions, and End. Resolution keeps its place in `state.rs` (step, position)
// so a decision can pause it with the state still plain JSON, and the answer resumes it.
// An event whose outcome a U-item's default decided carries `u` (the U-item id); the scenario
// runner refuses a scenario that meets such an event without listing it in `underdetermined`.

import { shuffleInPlace, type GameEvent } from '../../kernel/index.ts';
import { freshRound } from './setup.ts';
import { finalEvents } from './scoring.ts';
import {
  BOND,
  NONE,
  RIVALRY,
  type GroundGameAction,
  type GroundState,
  type GroundAction,
  type PlayerState,
} from './state.ts';

export function apply(s: GroundState, seat: number, a: GroundGameAction, ev: GameEvent[]): void {
  switch (a.type) {
    case 'select': {
      const p = s.players[seat];
      p.choice = { seat, action: a.action, target: a.target === null ? -1 : a.target, freedom: a.freedom };
      ev.push({ type: 'committed', seat, rule: 'GR-R02' });
      let all = true;
      for (const q of s.players) if (q.choice === null) all = false;
      if (all) reveal(s, ev);
      break;
    }
    case 'ground': {
      setGround(s, seat, a);
      ev.push({ type: 'ground_committed', seat, rule: 'GR-R05' });
      beginResolveIfReady(s, ev);
      break;
    }
    case 'bond': {
      const d = s.decision!;
      s.decision = null;
      if (a.accept) {
        setRel(s, d.from, seat, BOND);
        markNewBond(s, d.from, seat);
        ev.push({ type: 'bond_formed', seat: d.from, target: seat, rule: 'GR-L02', u: 'U1' });
      } else {
        ev.push({ type: 'bond_declined', seat: d.from, target: seat, rule: 'GR-L02', u: 'U1' });
      }
      break;
    }
    case 'rivalry': {
      const d = s.decision!;
      s.decision = null;
      if (a.choice === 'flip') {
        setRel(s, d.from, seat, BOND);
        markNewBond(s, d.from, seat);
        ev.push({ type: 'relation_flipped', seat: d.from, target: seat, to: 'bond', rule: 'GR-A05' });
      } else {
        setRel(s, d.from, seat, NONE);
        ev.push({ type: 'relation_broken', seat: d.from, target: seat, rule: 'GR-A05' });
      }
      break;
    }
    case 'deny': {
      s.decision = null;
      denyProblem(s, seat, a.problem, ev);
      advanceStage(s, seat, ev);
      break;
    }
    case 'darvo_attack': {
      s.decision = null;
      darvoAttack(s, seat, a.target, ev);
      break;
    }
  }
  runResolve(s, ev);
}

// ---------------------------------------------------------------------------------------------
// Reveal and GROUND choices

function reveal(s: GroundState, ev: GameEvent[]): void {
  const choices = [];
  for (const p of s.players)
    choices.push({
      seat: p.choice!.seat,
      action: p.choice!.action,
      target: p.choice!.target,
      freedom: p.choice!.freedom,
    });
  ev.push({ type: 'revealed', round: s.round, choices, rule: 'GR-R04' });
  // Freedom is turned SPENT at Reveal, so the spend does not betray a hidden choice (GR-R03)
  for (let i = 0; i < s.n; i++) {
    const p = s.players[i];
    if (p.choice!.freedom) {
      p.freedom = 'SPENT';
      ev.push({ type: 'freedom_spent', seat: i, rule: 'GR-R03' });
    }
  }
  s.phase = 'ground'; // every GROUND player is asked its mode: GR, OU and ND are always on its menu (GR-R05)
  beginResolveIfReady(s, ev);
}

function setGround(s: GroundState, seat: number, a: GroundAction): void {
  s.players[seat].ground = { seat, mode: a.mode, option: a.option ?? '', target: a.target === null ? -1 : a.target };
}

function beginResolveIfReady(s: GroundState, ev: GameEvent[]): void {
  const chosen = [];
  for (const p of s.players) {
    if (p.choice!.action !== 'GROUND') continue;
    if (p.ground === null) return;
    chosen.push({ seat: p.ground.seat, mode: p.ground.mode, option: p.ground.option, target: p.ground.target });
  }
  if (chosen.length > 0) ev.push({ type: 'ground_revealed', choices: chosen, rule: 'GR-R05' });
  s.phase = 'resolve';
  s.rs.step = 1;
  s.rs.i = 0;
}

// ---------------------------------------------------------------------------------------------
// Resolve: steps 1..6, each in Lead order then clockwise (GR-R06, GR-R07)

function runResolve(s: GroundState, ev: GameEvent[]): void {
  const n = s.n;
  while (s.phase === 'resolve' && s.decision === null) {
    const rs = s.rs;
    if (rs.i >= n) {
      rs.step++;
      rs.i = 0;
      if (rs.step > 6) {
        endRound(s, ev);
        return;
      }
      continue;
    }
    const seat = (s.lead + rs.i) % n; // clockwise = next seat number (U13)
    rs.i++;
    const p = s.players[seat];
    const c = p.choice!;
    switch (rs.step) {
      case 1:
        if (c.action === 'GROUND') resolveGround(s, seat, ev);
        break;
      case 2:
        if (c.action === 'SUPPORT') support(s, seat, c.target, ev);
        break;
      case 3:
        if (p.darvo !== 'OFF') stage(s, seat, ev);
        break;
      case 4:
        if (c.action === 'INVESTIGATE') investigate(s, seat, c.target, ev);
        break;
      case 5:
        if (c.action === 'ATTACK') attack(s, seat, c.target, 'action', ev);
        break;
      case 6:
        if (c.action === 'SOLVE') solve(s, seat, c.target, ev);
        break;
    }
  }
}

/** Stress change, clamped to 0–5 on every application (GR-F01, U2). */
function stress(s: GroundState, seat: number, delta: number, rule: string, ev: GameEvent[]): void {
  const p = s.players[seat];
  const from = p.stress;
  let to = from + delta;
  if (to > 5) to = 5;
  else if (to < 0) to = 0;
  p.stress = to;
  if (to !== from + delta) ev.push({ type: 'stress', seat, from, to, delta, rule, u: 'U2' });
  else ev.push({ type: 'stress', seat, from, to, delta, rule });
}

function ready(s: GroundState, seat: number, rule: string, ev: GameEvent[]): void {
  s.players[seat].freedom = 'READY';
  ev.push({ type: 'freedom_ready', seat, rule });
}

function relCount(s: GroundState, p: number): number {
  const n = s.n;
  let k = 0;
  for (let q = 0; q < n; q++) if (s.rel[p * n + q] !== NONE) k++;
  return k;
}

function setRel(s: GroundState, a: number, b: number, r: number): void {
  s.rel[a * s.n + b] = r;
  s.rel[b * s.n + a] = r;
}

function pairKey(s: GroundState, a: number, b: number): number {
  return a < b ? a * s.n + b : b * s.n + a;
}

function markNewBond(s: GroundState, a: number, b: number): void {
  s.rs.newBonds.push(pairKey(s, a, b));
}

// step 1 -------------------------------------------------------------------------------------

function resolveGround(s: GroundState, seat: number, ev: GameEvent[]): void {
  const p = s.players[seat];
  const g = p.ground!;
  ev.push({
    type: 'ground',
    seat,
    mode: g.mode,
    option: g.option,
    target: g.target,
    rule: g.mode === 'GR' ? 'GR-A10' : g.mode === 'OU' ? 'GR-A11' : 'GR-A12',
  });
  if (g.mode === 'GR') {
    stress(s, seat, -2, 'GR-A10', ev);
    ready(s, seat, 'GR-F04', ev);
    if (p.darvo !== 'OFF') {
      p.darvoEnding = true;
      ev.push({ type: 'darvo_will_end', seat, stage: p.darvo, rule: 'GR-A10' });
    }
    return;
  }
  switch (g.option) {
    case 'restore': {
      const pr = s.problems[g.target];
      if (pr.denied) {
        pr.denied = false;
        pr.faceUp = true;
        ev.push({ type: 'problem_restored', seat, problem: pr.slot, rule: 'GR-A11' });
      }
      return;
    }
    case 'cancel':
      s.rs.ouCancel.push(seat, g.target);
      return;
    case 'protect':
      s.rs.protectedSlots.push(g.target);
      return;
    case 'remove_blame': {
      const tk = s.players[g.target].token;
      if (tk.side === 'blame' && tk.at === seat) {
        tk.side = 'focus';
        tk.at = -1;
        ev.push({ type: 'blame_removed', seat, owner: g.target, rule: 'GR-T02' });
      }
      return;
    }
    case 'break':
      if (s.rel[seat * s.n + g.target] !== NONE) {
        setRel(s, seat, g.target, NONE);
        ev.push({ type: 'relation_broken', seat, target: g.target, rule: 'GR-L04' });
      }
      return;
    case 'reject_reverse':
      s.rs.ndReject.push(seat, g.target);
      return;
  }
}

// step 2 -------------------------------------------------------------------------------------

function support(s: GroundState, a: number, b: number, ev: GameEvent[]): void {
  const n = s.n;
  const r = s.rel[a * n + b];
  const t = s.players[b];
  if (r === BOND) {
    if (s.rs.newBonds.includes(pairKey(s, a, b)))
      ev.push({ type: 'support', seat: a, target: b, through: 'bond', fresh: true, rule: 'GR-A04', u: 'U19' });
    else ev.push({ type: 'support', seat: a, target: b, through: 'bond', rule: 'GR-A04' });
    stress(s, b, -2, 'GR-A04', ev);
    ready(s, b, 'GR-F04', ev);
    if (t.darvo !== 'OFF') {
      if (s.rs.newBonds.includes(pairKey(s, a, b))) {
        // a Bond made this round does not regulate DARVO (GR-L05)
        ev.push({ type: 'darvo_not_regulated', seat: a, target: b, rule: 'GR-L05' });
      } else {
        ev.push({ type: 'darvo_cancelled', seat: b, by: a, stage: t.darvo, rule: 'GR-A04', u: 'U6' });
        endSequence(s, b, 'GR-D06', ev);
      }
    }
  } else if (r === RIVALRY) {
    ev.push({ type: 'support', seat: a, target: b, through: 'rivalry', rule: 'GR-A05' });
    stress(s, b, -1, 'GR-A05', ev);
    s.decision = { seat: b, kind: 'rivalry_choice', from: a, options: [] };
  } else {
    ev.push({ type: 'support', seat: a, target: b, through: 'none', rule: 'GR-A03' });
    stress(s, b, -1, 'GR-A03', ev);
    if (relCount(s, a) < 2 && relCount(s, b) < 2) {
      s.decision = { seat: b, kind: 'bond_accept', from: a, options: [] }; // U1
    } else {
      ev.push({ type: 'no_free_slot', seat: a, target: b, rule: 'GR-L01' });
    }
  }
}

// step 3: DARVO stages ------------------------------------------------------------------------

function stage(s: GroundState, seat: number, ev: GameEvent[]): void {
  const p = s.players[seat];
  if (p.darvo === 'DENY') {
    const options: number[] = [];
    for (const pr of s.problems) {
      if (pr.faceUp && !pr.denied && pr.claimedBy < 0 && !s.rs.protectedSlots.includes(pr.slot)) options.push(pr.slot);
    }
    if (options.length === 0) {
      ev.push({ type: 'deny_no_target', seat, rule: 'GR-D03', u: 'U3' });
      advanceStage(s, seat, ev);
    } else if (options.length === 1) {
      denyProblem(s, seat, options[0], ev, true);
      advanceStage(s, seat, ev);
    } else {
      s.decision = { seat, kind: 'deny_target', from: -1, options };
    }
  } else if (p.darvo === 'ATTACK') {
    const options: number[] = [];
    for (let q = 0; q < s.n; q++) if (q !== seat) options.push(q);
    if (options.length === 1) darvoAttack(s, seat, options[0], ev, true);
    else s.decision = { seat, kind: 'darvo_attack_target', from: -1, options };
  } else {
    reverse(s, seat, ev);
  }
}

function denyProblem(s: GroundState, seat: number, slot: number, ev: GameEvent[], auto = false): void {
  const pr = s.problems[slot];
  pr.faceUp = false;
  pr.denied = true;
  if (auto) ev.push({ type: 'problem_denied', seat, problem: slot, auto: true, rule: 'GR-D03', u: 'U20' });
  else ev.push({ type: 'problem_denied', seat, problem: slot, rule: 'GR-D03' });
}

function darvoAttack(s: GroundState, seat: number, target: number, ev: GameEvent[], auto = false): void {
  const p = s.players[seat];
  if (auto) ev.push({ type: 'darvo_attack', seat, target, auto: true, rule: 'GR-D04', u: 'U20' });
  else ev.push({ type: 'darvo_attack', seat, target, rule: 'GR-D04' });
  attack(s, seat, target, 'darvo', ev);
  // the Focus goes beside the target even if the Attack was cancelled (GR-D04); a token lying
  // as Blame elsewhere stays there and only the target is remembered (U21)
  p.reverseTarget = target;
  if (p.token.side === 'focus') {
    p.token.at = target;
    ev.push({ type: 'focus_placed', seat, target, rule: 'GR-D04' });
  } else {
    ev.push({ type: 'focus_not_placed', seat, target, at: p.token.at, rule: 'GR-T03', u: 'U21' });
  }
  advanceStage(s, seat, ev);
}

function reverse(s: GroundState, seat: number, ev: GameEvent[]): void {
  const p = s.players[seat];
  const t = p.reverseTarget;
  const rj = s.rs.ndReject;
  let rejected = false;
  for (let i = 0; i < rj.length; i += 2) if (rj[i] === t && rj[i + 1] === seat) rejected = true;
  if (rejected) {
    // U5: no Blame, no +1, no Protection; the owner still gets −2 and the sequence ends
    ev.push({ type: 'reverse_rejected', seat, target: t, rule: 'GR-A12', u: 'U5' });
  } else {
    ev.push({ type: 'reverse', seat, target: t, rule: 'GR-D05' });
    if (p.token.side === 'focus') {
      p.token.side = 'blame';
      p.token.at = t;
      ev.push({ type: 'blame_placed', seat, target: t, rule: 'GR-T03' });
    } else {
      ev.push({ type: 'blame_stays', seat, target: t, at: p.token.at, rule: 'GR-T03', u: 'U21' });
    }
    stress(s, t, 1, 'GR-D05', ev);
    p.protection++;
    ev.push({ type: 'protection_gained', seat, rule: 'GR-D05' });
  }
  stress(s, seat, -2, 'GR-D05', ev);
  endSequence(s, seat, 'GR-D05', ev);
}

/** DENY → ATTACK → REVERSE, one stage per round (GR-D02); GROUND—GR ends it after this stage (GR-A10). */
function advanceStage(s: GroundState, seat: number, ev: GameEvent[]): void {
  const p = s.players[seat];
  p.darvo = p.darvo === 'DENY' ? 'ATTACK' : 'REVERSE';
  if (p.darvoEnding) endSequence(s, seat, 'GR-A10', ev);
  else ev.push({ type: 'darvo_advanced', seat, next: p.darvo, rule: 'GR-D02' });
}

function endSequence(s: GroundState, seat: number, rule: string, ev: GameEvent[]): void {
  const p = s.players[seat];
  p.darvo = 'OFF';
  p.darvoEnding = false;
  p.reverseTarget = -1;
  if (p.token.side === 'focus' && p.token.at >= 0) {
    p.token.at = -1; // GR-D06: a placed Focus comes back when the sequence ends before REVERSE
    ev.push({ type: 'focus_removed', seat, rule: 'GR-D06' });
  }
  ev.push({ type: 'darvo_ended', seat, rule });
}

// step 4 -------------------------------------------------------------------------------------

function investigate(s: GroundState, seat: number, slot: number, ev: GameEvent[]): void {
  if (slot >= 0) {
    const pr = s.problems[slot];
    if (!pr.faceUp && !pr.denied) {
      pr.faceUp = true;
      pr.known = true;
      ev.push({
        type: 'problem_revealed',
        seat,
        problem: slot,
        id: pr.id,
        suit: pr.suit,
        value: pr.value,
        rule: 'GR-A01',
      });
    } else {
      ev.push({ type: 'investigate_missed', seat, problem: slot, rule: 'GR-A01', u: 'U14' });
    }
  } else ev.push({ type: 'investigate_untargeted', seat, rule: 'GR-A01', u: 'U14' });
  draw(s, seat, ev);
}

function draw(s: GroundState, seat: number, ev: GameEvent[]): void {
  if (s.deck.length === 0) {
    if (s.discard.length === 0) {
      ev.push({ type: 'draw_skipped', seat, rule: 'GR-A01', u: 'U4' });
      return;
    }
    const d = s.discard;
    s.discard = s.deck;
    s.deck = d;
    shuffleInPlace(s.rng, 'shuffle', s.deck);
    ev.push({ type: 'deck_reshuffled', size: s.deck.length, rule: 'GR-A01', u: 'U4' });
  }
  s.players[seat].hand[s.deck.pop()!]++;
  ev.push({ type: 'drew', seat, rule: 'GR-A01' });
}

// step 5 -------------------------------------------------------------------------------------

/** One Attack, chosen or DARVO extra: cancellation first (U8), then the relation rules. */
function attack(s: GroundState, a: number, b: number, kind: 'action' | 'darvo', ev: GameEvent[]): void {
  const oc = s.rs.ouCancel;
  for (let i = 0; i < oc.length; i += 2) {
    if (oc[i] === b && oc[i + 1] === a) {
      oc.splice(i, 2);
      // U16: OU named the attacker; U8: with a Protection also ready, OU cancels first and the token is kept
      ev.push({
        type: 'attack_cancelled',
        seat: a,
        target: b,
        kind,
        by: 'ground_ou',
        rule: 'GR-A09',
        u: s.players[b].protection > 0 ? ['U16', 'U8'] : 'U16',
      });
      return;
    }
  }
  const t = s.players[b];
  if (t.protection > 0) {
    t.protection--;
    ev.push({ type: 'attack_cancelled', seat: a, target: b, kind, by: 'protection', rule: 'GR-T01' });
    return;
  }
  const n = s.n;
  const r = s.rel[a * n + b];
  if (r === BOND) {
    ev.push({ type: 'attack', seat: a, target: b, kind, through: 'bond', rule: 'GR-A07' });
    stress(s, b, 2, 'GR-A07', ev);
    setRel(s, a, b, RIVALRY);
    ev.push({ type: 'relation_flipped', seat: a, target: b, to: 'rivalry', rule: 'GR-L04' });
  } else if (r === RIVALRY) {
    ev.push({ type: 'attack', seat: a, target: b, kind, through: 'rivalry', rule: 'GR-A08' });
    stress(s, b, 2, 'GR-A08', ev);
    setRel(s, a, b, NONE);
    ev.push({ type: 'relation_broken', seat: a, target: b, rule: 'GR-A08' });
  } else {
    ev.push({ type: 'attack', seat: a, target: b, kind, through: 'none', rule: 'GR-A06' });
    stress(s, b, 1, 'GR-A06', ev);
    if (relCount(s, a) < 2 && relCount(s, b) < 2) {
      setRel(s, a, b, RIVALRY);
      ev.push({ type: 'rivalry_formed', seat: a, target: b, rule: 'GR-L03' });
    } else {
      ev.push({ type: 'no_free_slot', seat: a, target: b, rule: 'GR-L01' });
    }
  }
}

// step 6 -------------------------------------------------------------------------------------

function solve(s: GroundState, seat: number, slot: number, ev: GameEvent[]): void {
  const pr = s.problems[slot];
  const p = s.players[seat];
  if (pr.claimedBy >= 0) {
    // lost the race to an earlier resolver: the Solution stays in hand (GR-A02, GR-P04)
    ev.push({ type: 'solve_lost', seat, problem: slot, claimedBy: pr.claimedBy, rule: 'GR-P04' });
    return;
  }
  if (!pr.faceUp || pr.denied) {
    ev.push({ type: 'solve_blocked', seat, problem: slot, rule: 'GR-P01', u: 'U17' });
    return;
  }
  if (p.hand[pr.suit] === 0) {
    ev.push({ type: 'solve_blocked', seat, problem: slot, rule: 'GR-P05' });
    return;
  }
  p.hand[pr.suit]--;
  s.discard.push(pr.suit);
  pr.claimedBy = seat;
  p.claimed.push(slot);
  ev.push({ type: 'problem_claimed', seat, problem: slot, value: pr.value, rule: 'GR-A02' });
}

// End ----------------------------------------------------------------------------------------

function endRound(s: GroundState, ev: GameEvent[]): void {
  const n = s.n;
  // Stress is already within 0–5 (clamped on every change, U2); GR-R08 triggers in Lead order (U9)
  let triggers = 0;
  for (const p of s.players) if (p.stress === 5 && p.darvo === 'OFF') triggers++;
  for (let i = 0; i < n; i++) {
    const seat = (s.lead + i) % n;
    const p: PlayerState = s.players[seat];
    if (p.stress === 5) {
      if (p.darvo === 'OFF') {
        p.darvo = 'DENY';
        if (triggers > 1) ev.push({ type: 'darvo_triggered', seat, rule: 'GR-D01', u: 'U9' });
        else ev.push({ type: 'darvo_triggered', seat, rule: 'GR-D01' });
      } else {
        ev.push({ type: 'darvo_no_retrigger', seat, marker: p.darvo, rule: 'GR-D07' });
      }
    }
  }
  for (const p of s.players) {
    p.choice = null;
    p.ground = null;
    p.darvoEnding = false;
  }
  s.rs = freshRound();
  s.lead = (s.lead + 1) % n;
  ev.push({ type: 'round_ended', round: s.round, lead: s.lead, rule: 'GR-R08' });
  s.round++;
  if (s.round > 5) {
    s.round = 5;
    s.phase = 'over';
    finalEvents(s, ev);
  } else {
    s.phase = 'select';
  }
}
