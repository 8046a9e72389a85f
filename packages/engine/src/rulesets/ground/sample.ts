// Determinization for fair search agents (issue 15): a full state consistent with what one seat
// observes. Public parts are read back from the view; the hidden parts are drawn from `random`:
// other hands, deck and discard (from the edition's Solutions minus the seat's own hand), the
// identities of Problems nobody has seen, other seats' uncommitted-looking choices, and fresh RNG
// streams (future shuffles and draws re-seeded, so the real streams never leak into search).
//
// Limit: unseen Problems are drawn from the shipped edition; a game on a custom edition (which the
// view names only by id) cannot be sampled and raises bad_state.

import { ArbiterError, createRng, type AgentRandom } from '../../kernel/index.ts';
import { maxPriority, resolveEdition } from './edition.ts';
import { legal } from './menu.ts';
import type { GroundView } from './view.ts';
import { SUITS, type GroundState, type PlayerState, type Problem } from './state.ts';

function shuffle<T>(items: T[], random: AgentRandom): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
  return items;
}

export function sampleState(v: GroundView, seat: number, random: AgentRandom): GroundState {
  const ed = resolveEdition(undefined);
  if (v.edition !== ed.id)
    throw new ArbiterError(
      'bad_request',
      `cannot sample GROUND on edition ${v.edition}: only the shipped edition's Problems are known to the sampler`,
    );
  const sc = ed.scenarios.find((x) => x.id === v.scenario);
  if (!sc) throw new ArbiterError('bad_request', `unknown scenario ${v.scenario}`);
  const n = v.players.length;

  // Problems: seen ones as shown, unseen slots get a random permutation of the unseen cards
  const seen = new Set(v.problems.filter((p) => p.card).map((p) => p.card!.id));
  const unseen = shuffle(
    sc.hidden.filter((h) => h.priority <= maxPriority(n) && !seen.has(h.id)),
    random,
  );
  const problems: Problem[] = v.problems.map((p): Problem => {
    if (p.card) {
      return {
        slot: p.slot,
        id: p.card.id,
        name: p.card.name,
        suit: SUITS.indexOf(p.card.suit as (typeof SUITS)[number]),
        value: p.card.value,
        priority: p.priority!,
        faceUp: p.faceUp,
        denied: p.denied,
        claimedBy: p.claimedBy!,
        known: true,
      };
    }
    const h = unseen.pop();
    if (!h) throw new ArbiterError('bad_request', 'more unseen Problem slots than unseen Problem cards');
    return {
      slot: p.slot,
      id: h.id,
      name: h.name,
      suit: SUITS.indexOf(h.suit),
      value: h.value,
      priority: h.priority,
      faceUp: false,
      denied: p.denied,
      claimedBy: -1,
      known: false,
    };
  });

  // Solutions: the edition's cards minus the seat's own hand, dealt to other hands, deck and discard
  const me = v.players[seat];
  const own = me.hand ? [me.hand.Clarify, me.hand.Repair, me.hand.Boundary, me.hand.Change] : [0, 0, 0, 0];
  const left = [0, 0, 0, 0];
  for (const c of ed.solutions) left[SUITS.indexOf(c.suit)]++;
  for (let k = 0; k < 4; k++) left[k] -= own[k];
  const pool: number[] = [];
  for (let k = 0; k < 4; k++) for (let m = 0; m < left[k]; m++) pool.push(k);
  shuffle(pool, random);
  const players: PlayerState[] = v.players.map((p, i): PlayerState => {
    let hand = own.slice();
    if (i !== seat) {
      hand = [0, 0, 0, 0];
      for (let m = 0; m < p.handSize; m++) {
        const c = pool.pop();
        if (c === undefined) throw new ArbiterError('bad_request', 'hand sizes exceed the Solution cards');
        hand[c]++;
      }
    }
    return {
      stress: p.stress,
      freedom: p.freedom,
      darvo: p.darvo,
      darvoEnding: p.darvoEnding ?? false,
      reverseTarget: p.reverseTarget,
      token: { side: p.token.side, at: p.token.at },
      hand,
      claimed: p.claimed.slice(),
      protection: p.protection,
      choice: p.choice ? { ...p.choice } : null,
      ground: p.ground ? { ...p.ground } : null,
    };
  });
  if (pool.length < v.deckSize + v.discardSize)
    throw new ArbiterError('bad_request', 'deck and discard sizes exceed the Solution cards');
  const deck = pool.splice(0, v.deckSize);
  const discard = pool.splice(0, v.discardSize);

  const rel = new Array<number>(n * n).fill(0);
  for (const r of v.relations) {
    const k = r.kind === 'bond' ? 1 : 2;
    rel[r.a * n + r.b] = k;
    rel[r.b * n + r.a] = k;
  }
  const rs = v.resolution ?? { step: 0, i: 0, newBonds: [], ouCancel: [], protectedSlots: [], ndReject: [] };
  const s: GroundState = {
    edition: v.edition,
    scenario: v.scenario,
    mode: v.mode,
    n,
    threshold: v.threshold,
    round: v.round,
    lead: v.lead,
    phase: v.phase,
    players,
    problems,
    deck,
    discard,
    rel,
    rs: {
      step: rs.step,
      i: rs.i,
      newBonds: rs.newBonds.slice(),
      ouCancel: rs.ouCancel.slice(),
      protectedSlots: rs.protectedSlots.slice(),
      ndReject: rs.ndReject.slice(),
    },
    decision: v.decision ? { ...v.decision, options: v.decision.options.slice() } : null,
    rng: createRng(random.int(0x3fffffff)),
  };

  // hidden commitments: a committed Select the seat cannot see is drawn from that seat's menu
  // (in the sampled state); a GROUND mode not yet revealed is drawn or left open, half and half
  if (v.phase === 'select') {
    for (let i = 0; i < n; i++) {
      if (i === seat || !v.players[i].committed || s.players[i].choice !== null) continue;
      const menu = legal(s, i).actions.filter((a) => a.type === 'select');
      const a = menu.length > 0 ? random.pick(menu) : null;
      if (a && a.type === 'select')
        s.players[i].choice = {
          seat: i,
          action: a.action,
          target: a.target === null ? -1 : a.target,
          freedom: a.freedom,
        };
    }
  } else if (v.phase === 'ground') {
    for (let i = 0; i < n; i++) {
      if (i === seat || s.players[i].ground !== null || s.players[i].choice?.action !== 'GROUND') continue;
      if (random.int(2) === 0) continue;
      const menu = legal(s, i).actions;
      const a = menu.length > 0 ? random.pick(menu) : null;
      if (a && a.type === 'ground')
        s.players[i].ground = {
          seat: i,
          mode: a.mode,
          option: a.option ?? '',
          target: a.target === null ? -1 : a.target,
        };
    }
  }
  return s;
}
