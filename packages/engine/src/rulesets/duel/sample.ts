// Determinization for fair search agents (issue 15): a full duel state consistent with one seat's
// view. Everything public is read back from the view; the cards the seat cannot locate (its own
// deck order, and for the other seat its hand, deck, face-down heap, the face-down remote agenda and
// an agenda being installed) are dealt at random from the view's `unseen` counts; the RNG is
// re-seeded from `random`, so later shuffles do not follow the real game's stream.

import { ArbiterError, createRng, type AgentRandom } from '../../kernel/index.ts';
import { CARDS } from './cards.ts';
import type { DuelView } from './view.ts';
import { CORP, type DuelState, type HeapItem, type SeatState } from './state.ts';

function shuffle<T>(items: T[], random: AgentRandom): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
  return items;
}

/** Takes an agenda out of `pool` (the remote and a face-down install only ever hold agendas). */
function takeAgenda(pool: string[], random: AgentRandom): string {
  const at: number[] = [];
  for (let i = 0; i < pool.length; i++) if (CARDS[pool[i]].kind === 'agenda') at.push(i);
  if (at.length === 0) throw new ArbiterError('bad_request', 'duel sample: no unseen agenda for a face-down agenda');
  return pool.splice(random.pick(at), 1)[0];
}

function take(pool: string[], n: number): string[] {
  if (pool.length < n)
    throw new ArbiterError('bad_request', 'duel sample: the unseen counts do not cover the hidden cards');
  return pool.splice(pool.length - n, n);
}

export function sampleState(v: DuelView, seat: number, random: AgentRandom): DuelState {
  const e = v.engine;
  let remote: DuelState['remote'] = v.remote === null ? null : { card: v.remote.card ?? '', adv: v.remote.adv };
  let actionCard = e.actionCard;
  const p: SeatState[] = v.seats.map((sv, i): SeatState => {
    const pool: string[] = [];
    for (const [card, k] of Object.entries(sv.unseen)) for (let m = 0; m < k; m++) pool.push(card);
    shuffle(pool, random);
    // constrained slots first: they must be agendas
    if (i === CORP && remote !== null && v.remote!.card === null)
      remote = { card: takeAgenda(pool, random), adv: remote.adv };
    if (v.action !== null && v.action.owner === i && actionCard === null && hiddenInstall(v, seat))
      actionCard = takeAgenda(pool, random);
    const heap: HeapItem[] = sv.heap.map((h) => ({ card: h.card ?? '', up: h.up }));
    for (const h of heap) if (h.card === '') h.card = take(pool, 1)[0];
    const hand = sv.hand !== undefined ? sv.hand.slice() : take(pool, sv.handCount);
    const deck = take(pool, sv.deckCount);
    if (pool.length !== 0) throw new ArbiterError('bad_request', 'duel sample: unseen cards left over');
    return {
      clicks: sv.clicks,
      credits: sv.credits,
      deck,
      hand,
      heap,
      score: sv.score.map((x) => ({ card: x.card, pts: x.pts })),
      installed: sv.installed.slice(),
    };
  });
  const owes = v.owes;
  return {
    cfg: {
      clicks: e.cfg.clicks.slice(),
      maxHand: e.cfg.maxHand.slice(),
      turns: e.cfg.turns,
      variant: e.cfg.variant,
      cards: e.cfg.cards.slice(),
      startPoints: e.cfg.startPoints.slice(),
    },
    rng: createRng(random.int(0x3fffffff)),
    turn: { ...v.turn, begunCounts: v.turn.begunCounts.slice() },
    step: v.step,
    next: e.next,
    p,
    remote,
    ice: v.ice.slice(),
    core: v.core,
    skip: v.skip,
    directed: v.directed,
    action:
      v.action === null
        ? null
        : {
            id: v.action.id,
            owner: v.action.owner,
            kind: v.action.kind,
            card: actionCard,
            status: v.action.status as NonNullable<DuelState['action']>['status'],
            child: v.action.child,
            fx: e.actionFx,
          },
    run:
      v.run === null
        ? null
        : {
            id: v.run.id,
            stage: v.run.stage as NonNullable<DuelState['run']>['stage'],
            success: v.run.success,
            pos: v.run.pos,
          },
    receipt: e.receipt,
    dmg: e.dmg === null ? null : { n: e.dmg.n, core: e.dmg.core },
    cpDue: v.checkpointDue,
    queue: v.queued.map((a) => ({ src: a.src, who: a.who })),
    win: v.windows.map((w, k) => ({
      kind: w.kind as 'paid' | 'react',
      prio: w.prio,
      passed: e.passed[k],
      abilities: w.abilities.map((a) => ({ src: a.src, who: a.who })),
    })),
    ask: owes === null ? null : { seat: owes.seat, kind: owes.kind, count: e.askCount },
    turns: e.turns,
    result: v.result === null ? null : { winners: v.result.winners.slice(), reason: v.result.reason },
  };
}

/** The view hides the card of the corp's agenda install from the runner. */
function hiddenInstall(v: DuelView, seat: number): boolean {
  // an install always names its card until its effect has run (fx 1), which clears it
  return (
    seat !== CORP &&
    v.action !== null &&
    v.action.owner === CORP &&
    v.action.kind === 'install' &&
    v.engine.actionFx === 0
  );
}
