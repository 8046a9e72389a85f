// Monte Carlo tree search over the ruleset contract, fair by construction: the agent reads only
// its seat's view (through `ruleset.sampleState`) and menu, never the omniscient state.
//
// One implementation serves both agents:
//  - `mcts` (UCT) samples the root state once per decision; for a perfect-information ruleset that
//    sample is the true state, so this is plain UCT.
//  - `ismcts` (single-observer information-set MCTS) samples a fresh determinization every
//    iteration and shares one tree over all of them; a child's "availability" counts the
//    iterations in which its action was legal, and UCB uses it in place of the parent's visits.
//    With the package's rollout policy (RulesetPackage.search) it searches only its own seat's
//    decisions and lets the policy play everyone else and the playouts (ismctsDecision).
// Simultaneous decisions are searched as if taken in pending order (a common simplification:
// later seats in the tree "see" earlier choices of the same turn); documented in docs/agents.md.

import {
  ArbiterError,
  canonicalJson,
  cloneState,
  type Agent,
  type AgentContext,
  type AgentRandom,
  type GameEvent,
  type Json,
  type Ruleset,
} from '../../kernel/index.ts';
import { outcomeRewards } from './reward.ts';

export interface SearchOptions {
  /** Playouts per decision (default 1000). */
  iterations: number;
  /** Optional wall-clock budget per decision in ms; when set, it ends the search early (not reproducible across machines). */
  timeMs?: number;
  /** UCB exploration constant (default 1; rewards are in [0, 1]; chosen over 0.5 and 0.7 on tic-tac-toe against a perfect and a random player). */
  exploration: number;
  /** Resample the hidden state every iteration (ISMCTS) or once per decision (UCT). */
  resample: boolean;
  /** Playout length cap in actions; a cut-off playout counts as a draw (or is evaluated, with hooks). */
  maxPlayout: number;
  /** Progressive widening (ismcts): a node may hold about `widen * sqrt(visits)` children (0: no widening). */
  widen: number;
  /**
   * Weight of the package policy's own pick in ismcts selection, PUCT-style: it earns
   * `prior * sqrt(parent visits) / (1 + visits)` on top of UCB, so search departs from the policy
   * only where playouts say clearly better. Default 0: on duel a prior of 3 cost half the wins
   * against the heuristic, and on GROUND it gained nothing measurable.
   */
  prior: number;
}

/**
 * What a package lends the search (its `search` hints, resolved): a policy for playouts and for
 * the other seats in ismcts, and an evaluation for playouts cut at `depth`.
 */
export interface SearchHooks<S = unknown> {
  /** Makes one rollout agent (a fresh one per playout, so agents with memory start clean). */
  policy?: () => Agent<Json, S>;
  evaluate?(state: S): number[];
  depth?: number;
}

export interface Node {
  /** Seat that chose `action` to reach this node (-1 at the root). */
  seat: number;
  action: Json | null;
  key: string;
  children: Node[];
  /** Children by action key and mover (`seat|key`), for lookups without scanning. */
  byKey: Map<string, Node>;
  visits: number;
  /** Seat that moves at this node, and its menu size (for the solver). */
  mover: number;
  menuSize: number;
  /** Exact rewards when the solver has proved them (fixed-state search only). */
  proven: number[] | null;
  /** Already filed in the search memory under its view. */
  recorded: boolean;
  /** Iterations in which this node's action was legal from its parent (ISMCTS availability). */
  avail: number;
  reward: number;
}

function newNode(seat: number, action: Json | null, key: string): Node {
  return {
    seat,
    action,
    key,
    children: [],
    byKey: new Map(),
    visits: 0,
    mover: -1,
    menuSize: 0,
    proven: null,
    recorded: false,
    avail: 0,
    reward: 0,
  };
}

/**
 * The solver step (MCTS-Solver, generalised to reward vectors): a node is proved when its mover
 * has a child worth the best possible reward (1), or when every action is expanded and proved,
 * the mover taking the best of them. Returns whether the node is now proved.
 */
function prove(node: Node): boolean {
  if (node.proven !== null) return true;
  if (node.mover < 0) return false;
  let best: number[] | null = null;
  let all = node.children.length === node.menuSize;
  for (const c of node.children) {
    if (c.seat !== node.mover) continue;
    if (c.proven === null) {
      all = false;
      continue;
    }
    if (c.proven[node.mover] >= 1) {
      node.proven = c.proven;
      return true;
    }
    if (best === null || c.proven[node.mover] > best[node.mover]) best = c.proven;
  }
  if (all && best !== null) {
    node.proven = best;
    return true;
  }
  return false;
}

/** Canonical key of a menu action; menus often hand out the same objects, so keys are cached per object. */
function keyer(): (a: Json) => string {
  const cache = new WeakMap<object, string>();
  return (a) => {
    if (a === null || typeof a !== 'object') return canonicalJson(a);
    let k = cache.get(a);
    if (k === undefined) {
      k = canonicalJson(a);
      cache.set(a, k);
    }
    return k;
  };
}

/** Run one search from `ctx` and return the most visited root action (ties: first in menu order). */
/**
 * What a UCT agent keeps between its decisions: the subtrees two plies below the last root,
 * by the seat's view there, so the next search starts from everything already learnt.
 */
export interface SearchMemory {
  next: Map<string, Node>;
}

/** Search agents read only their seat's view, so they need the ruleset's sampler to fill in the rest. */
function requireSampler<S>(
  rs: Ruleset<S, Json>,
): asserts rs is Ruleset<S, Json> & Required<Pick<Ruleset<S, Json>, 'sampleState'>> {
  if (!rs.sampleState)
    throw new ArbiterError(
      'bad_request',
      `${rs.id} has no sampleState, which search agents need to read only their seat's view`,
    );
}

function searchDecision<S>(
  ctx: AgentContext<S, Json>,
  opts: SearchOptions,
  memory?: SearchMemory,
  hooks: SearchHooks<S> = {},
): Json {
  const rs = ctx.ruleset as Ruleset<S, Json>;
  const menu = ctx.menu.actions;
  if (menu.length === 1) return menu[0];
  requireSampler(rs);
  const sample = rs.sampleState.bind(rs);
  const rnd: AgentRandom = ctx.random;
  const view = ctx.view;
  const seat = ctx.seat;
  const key = keyer();
  const reuse = memory !== undefined && !opts.resample;
  const root = (reuse && memory.next.get(canonicalJson(view))) || newNode(-1, null, '');
  if (reuse) memory.next = new Map();
  const events: GameEvent[] = [];
  let base: S | null = null;
  const deadline = opts.timeMs !== undefined ? Date.now() + opts.timeMs : Infinity;

  for (let it = 0; it < opts.iterations; it++) {
    if ((it & 63) === 63 && Date.now() > deadline) break;
    let state: S;
    if (opts.resample) state = sample(view, seat, rnd);
    else {
      if (base === null) base = sample(view, seat, rnd);
      state = cloneState(rs, base);
    }
    const path: Node[] = [root];
    let node = root;
    let steps = 0;
    let known: number[] | null = null;
    // selection and expansion
    for (;;) {
      if (
        node.proven !== null &&
        (node.children.length === 0 || node.proven[node.mover] >= 1 || node.proven[node.mover] <= 0)
      ) {
        known = node.proven;
        break;
      }
      const out = rs.outcome(state);
      if (out !== null) {
        known = outcomeRewards(out, rs.seats(state));
        // exact only when the tree follows one fixed state (perfect information / UCT)
        if (!opts.resample) node.proven = known;
        break;
      }
      const pending = rs.pending(state);
      if (pending.length === 0) break;
      const mover = pending[0].seat;
      const actions = rs.legal(state, mover).actions;
      if (actions.length === 0) break;
      node.mover = mover;
      node.menuSize = actions.length;
      // availability of known children, and the actions not tried yet from this node
      let untried: Json[] | null = null;
      const legalChildren: Node[] = [];
      for (const a of actions) {
        const c = node.byKey.get(mover + '|' + key(a));
        if (c === undefined) (untried ??= []).push(a);
        else {
          c.avail++;
          legalChildren.push(c);
        }
      }
      let next: Node;
      let action: Json;
      if (untried !== null) {
        action = untried[untried.length === 1 ? 0 : rnd.int(untried.length)];
        next = newNode(mover, action, key(action));
        next.avail = 1;
        node.children.push(next);
        node.byKey.set(mover + '|' + next.key, next);
      } else {
        next = legalChildren[0];
        let bestScore = -Infinity;
        for (const c of legalChildren) {
          // proved wins are taken and proved losses avoided; a proved draw keeps its sampled mean,
          // which still tells how often a fallible opponent errs on the way
          const p = c.proven === null ? -1 : c.proven[mover];
          const score =
            p >= 1
              ? Infinity
              : p === 0
                ? -1e9 + c.visits
                : c.reward / c.visits + opts.exploration * Math.sqrt(Math.log(c.avail) / c.visits);
          if (score > bestScore) {
            bestScore = score;
            next = c;
          }
        }
        action = next.action;
        // the stored action came from another determinization; apply this state's own menu element
        for (const a of actions) if (key(a) === next.key) action = a;
      }
      events.length = 0;
      rs.apply(state, mover, action, events);
      steps++;
      path.push(next);
      node = next;
      if (reuse && path.length === 3 && !next.recorded) {
        next.recorded = true;
        memory.next.set(canonicalJson(rs.view(state, seat)), next);
      }
      if (untried !== null) {
        const out2 = rs.outcome(state);
        if (out2 !== null) {
          known = outcomeRewards(out2, rs.seats(state));
          if (!opts.resample) node.proven = known;
        }
        break;
      }
    }
    let rewards = known;
    if (rewards === null && (hooks.policy !== undefined || hooks.evaluate !== undefined))
      rewards = playout(rs, state, hooks, opts, rnd, hooks.policy ? new Map() : null);
    if (rewards === null) {
      // playout: uniform over the menu
      while (steps < opts.maxPlayout && rs.outcome(state) === null) {
        const pending = rs.pending(state);
        if (pending.length === 0) break;
        const mover = pending[0].seat;
        const actions = rs.legal(state, mover).actions;
        if (actions.length === 0) break;
        events.length = 0;
        rs.apply(state, mover, actions[actions.length === 1 ? 0 : rnd.int(actions.length)], events);
        steps++;
      }
      rewards = outcomeRewards(rs.outcome(state), rs.seats(state));
    }
    for (const n of path) {
      n.visits++;
      if (n.seat >= 0) n.reward += rewards[n.seat];
    }
    if (!opts.resample) {
      for (let i = path.length - 2; i >= 0 && prove(path[i]); i--);
      if (root.proven !== null && root.proven[seat] >= 1) break;
    }
  }

  // a proved best child if there is one, else the most visited root child on the real menu
  let best: Json = menu[0];
  let bestScore = -Infinity;
  for (const a of menu) {
    const c = root.byKey.get(seat + '|' + key(a));
    if (c === undefined) continue;
    // proved values rank above visit counts: a proved win first, a proved loss last
    const score =
      c.proven !== null ? (c.proven[seat] >= 1 ? Infinity : c.proven[seat] <= 0 ? -Infinity : c.visits) : c.visits;
    if (score > bestScore) {
      bestScore = score;
      best = a;
    }
  }
  return best;
}

/** `mcts[:ITERATIONS]` and `ismcts[:ITERATIONS]`; `mcts:ms=50` sets a time budget instead. */
export function parseSearchArgs(args: string | undefined, resample: boolean): SearchOptions {
  const opts: SearchOptions = { iterations: 1000, exploration: 1, resample, maxPlayout: 10_000, widen: 2, prior: 0 };
  if (args === undefined || args.trim() === '') return opts;
  // ',' or '/' between options: '/' survives comma-separated agent lists (`--agents ismcts:it=50/c=0.7,random`)
  for (const part of args.split(/[,/]/)) {
    const [k, v] = part.includes('=') ? part.split('=', 2) : ['iterations', part];
    const n = Number(v);
    // widening and the prior may be switched off with 0
    if (!Number.isFinite(n) || n < 0 || (n === 0 && k !== 'widen' && k !== 'prior'))
      throw new ArbiterError('bad_request', `search agent option ${k} must be a positive number, got "${v}"`);
    if (k === 'iterations' || k === 'it') opts.iterations = Math.floor(n);
    else if (k === 'ms') {
      opts.timeMs = n;
      opts.iterations = Number.MAX_SAFE_INTEGER;
    } else if (k === 'c') opts.exploration = n;
    else if (k === 'playout') opts.maxPlayout = Math.floor(n);
    else if (k === 'widen') opts.widen = n;
    else if (k === 'prior') opts.prior = n;
    else
      throw new ArbiterError(
        'bad_request',
        `unknown search agent option "${k}" (iterations, ms, c, playout, widen, prior)`,
      );
  }
  return opts;
}

export function searchAgent(name: string, opts: SearchOptions, hooks: SearchHooks = {}): Agent<Json> {
  const memory: SearchMemory = { next: new Map() };
  return {
    name,
    choose: (ctx) => (opts.resample ? ismctsDecision(ctx, opts, hooks) : searchDecision(ctx, opts, memory, hooks)),
  };
}

/** A policy's answer, or null when it has none at once (a Promise) or throws. */
function ask<S>(agent: Agent<Json, S>, ctx: AgentContext<S, Json>): Json | null {
  try {
    const a = agent.choose(ctx);
    if (a !== null && typeof a === 'object' && typeof (a as { then?: unknown }).then === 'function') return null;
    return a as Json;
  } catch {
    return null;
  }
}

/**
 * A rollout context on a sampled state: the view and menu are computed only if the policy reads
 * them (scripted policies that read the sample's state skip both).
 */
function rolloutContext<S>(rs: Ruleset<S, Json>, state: S, seat: number, kind: string, rnd: AgentRandom) {
  let view: Json | undefined;
  let menu: AgentContext<S, Json>['menu'] | undefined;
  const ctx: AgentContext<S, Json> = {
    ruleset: rs,
    seat,
    kind,
    get view() {
      return (view ??= rs.view(state, seat));
    },
    get menu() {
      return (menu ??= rs.legal(state, seat));
    },
    state,
    random: rnd,
  };
  return ctx;
}

/**
 * Plays `state` on from a leaf: every seat by the package's policy (else uniform over the menu)
 * until the end, or until `depth` actions when the package can evaluate a cut state. Returns the
 * rewards per seat.
 */
function playout<S>(
  rs: Ruleset<S, Json>,
  state: S,
  hooks: SearchHooks<S>,
  opts: SearchOptions,
  rnd: AgentRandom,
  agents: Map<number, Agent<Json, S>> | null,
): number[] {
  const events: GameEvent[] = [];
  const cut = hooks.evaluate !== undefined && hooks.depth !== undefined ? hooks.depth : opts.maxPlayout;
  let steps = 0;
  for (;;) {
    const out = rs.outcome(state);
    if (out !== null) return outcomeRewards(out, rs.seats(state));
    if (steps >= cut) break;
    const pending = rs.pending(state);
    if (pending.length === 0) break;
    const { seat: mover, kind } = pending[0];
    let action: Json | null = null;
    if (agents !== null) {
      let agent = agents.get(mover);
      if (agent === undefined) agents.set(mover, (agent = hooks.policy!()));
      action = ask(agent, rolloutContext(rs, state, mover, kind, rnd));
    }
    if (action === null) {
      const actions = rs.legal(state, mover).actions;
      if (actions.length === 0) break;
      action = actions[actions.length === 1 ? 0 : rnd.int(actions.length)];
    }
    events.length = 0;
    rs.apply(state, mover, action, events);
    steps++;
  }
  if (steps >= cut && hooks.evaluate) return hooks.evaluate(state);
  return outcomeRewards(null, rs.seats(state));
}

/** Own-seat tree node of ismcts: children by action key; statistics as in UCT with availability. */
interface OwnNode {
  children: Map<string, OwnNode>;
  action: Json | null;
  /** The policy's pick at its parent. */
  policy: boolean;
  visits: number;
  avail: number;
  reward: number;
}

const ownNode = (action: Json | null): OwnNode => ({
  children: new Map(),
  action,
  policy: false,
  visits: 0,
  avail: 0,
  reward: 0,
});

/**
 * Information-set MCTS (single observer): a fresh determinization every iteration, one tree over
 * all of them. With a package policy, the tree holds only this seat's decisions and the other seats
 * play by the policy (an opponent model; their hidden information is the sample's, so their moves
 * must not branch the tree); without one, every seat branches the tree as in plain ISMCTS.
 * Big menus widen progressively: a node adds a child only while it has fewer than about
 * `widen * sqrt(visits)`, the policy's own pick first, so iterations go deep instead of wide.
 */
function ismctsDecision<S>(ctx: AgentContext<S, Json>, opts: SearchOptions, hooks: SearchHooks<S>): Json {
  const rs = ctx.ruleset as Ruleset<S, Json>;
  const menu = ctx.menu.actions;
  if (menu.length === 1) return menu[0];
  requireSampler(rs);
  if (hooks.policy === undefined) return searchDecision(ctx, opts, undefined, hooks);
  const rnd = ctx.random;
  const view = ctx.view;
  const seat = ctx.seat;
  const key = keyer();
  const root = ownNode(null);
  const deadline = opts.timeMs !== undefined ? Date.now() + opts.timeMs : Infinity;
  const events: GameEvent[] = [];
  const rootKeys = new Set(menu.map((a) => key(a)));

  const sample = rs.sampleState.bind(rs);
  const policy = hooks.policy;
  let failures = 0;
  let firstError: unknown = null;
  // the node an iteration added, taken back if that iteration fails
  const made: { parent: OwnNode; key: string }[] = [];
  for (let it = 0; it < opts.iterations; it++) {
    if ((it & 15) === 15 && Date.now() > deadline) break;
    made.length = 0;
    try {
      iterate();
    } catch (err) {
      // a transition refused a sampled state (a sampler that missed some hidden structure): this
      // iteration teaches nothing, the search goes on; only a search where every one fails is an error
      for (const m of made) m.parent.children.delete(m.key);
      failures++;
      firstError ??= err;
    }
    function iterate(): void {
      const state = sample(view, seat, rnd);
      const agents = new Map<number, Agent<Json, S>>();
      const path: OwnNode[] = [root];
      let node = root;
      let rewards: number[] | null = null;
      let expanded = false;
      while (!expanded) {
        const out = rs.outcome(state);
        if (out !== null) {
          rewards = outcomeRewards(out, rs.seats(state));
          break;
        }
        const pending = rs.pending(state);
        if (pending.length === 0) break;
        // this seat first among simultaneous deciders: it cannot see what the others submit
        const mine = pending.find((p) => p.seat === seat);
        const { seat: mover, kind } = mine ?? pending[0];
        let action: Json | null;
        if (mover !== seat) {
          let agent = agents.get(mover);
          if (agent === undefined) agents.set(mover, (agent = policy()));
          action = ask(agent, rolloutContext(rs, state, mover, kind, rnd));
          if (action === null) {
            const actions = rs.legal(state, mover).actions;
            if (actions.length === 0) break;
            action = actions[rnd.int(actions.length)];
          }
        } else {
          let actions = rs.legal(state, seat).actions;
          if (node === root) actions = actions.filter((a) => rootKeys.has(key(a)));
          if (actions.length === 0) break;
          let untried: Json[] | null = null;
          const legal: OwnNode[] = [];
          for (const a of actions) {
            const c = node.children.get(key(a));
            if (c === undefined) (untried ??= []).push(a);
            else {
              c.avail++;
              legal.push(c);
            }
          }
          const room = opts.widen > 0 ? Math.ceil(opts.widen * Math.sqrt(node.visits + 1)) : Infinity;
          let next: OwnNode;
          if (untried !== null && (legal.length < room || legal.length === 0)) {
            // the policy's own choice first, then the rest at random
            let pick: Json | null = null;
            if (legal.length === 0 || node.children.size === 0) {
              let agent = agents.get(seat);
              if (agent === undefined) agents.set(seat, (agent = policy()));
              const p = ask(agent, rolloutContext(rs, state, seat, kind, rnd));
              if (p !== null) {
                const k = key(p);
                pick = untried.find((a) => key(a) === k) ?? null;
              }
            }
            action = pick ?? untried[untried.length === 1 ? 0 : rnd.int(untried.length)];
            next = ownNode(action);
            next.policy = pick !== null;
            next.avail = 1;
            node.children.set(key(action), next);
            made.push({ parent: node, key: key(action) });
            expanded = true;
          } else {
            next = legal[0];
            let best = -Infinity;
            const bias = opts.prior * Math.sqrt(node.visits + 1);
            for (const c of legal) {
              const score =
                c.reward / c.visits +
                opts.exploration * Math.sqrt(Math.log(c.avail) / c.visits) +
                (c.policy ? bias / (1 + c.visits) : 0);
              if (score > best) {
                best = score;
                next = c;
              }
            }
            action = next.action!;
            // the stored action came from another determinization; apply this state's own element
            const k = key(action);
            for (const a of actions) if (key(a) === k) action = a;
          }
          path.push(next);
          node = next;
        }
        events.length = 0;
        rs.apply(state, mover, action, events);
      }
      rewards ??= playout(rs, state, hooks, opts, rnd, agents);
      for (const n of path) {
        n.visits++;
        n.reward += rewards[seat];
      }
    }
  }
  if (failures > 0 && root.children.size === 0) throw firstError;

  let best: Json = menu[0];
  let most = -1;
  for (const a of menu) {
    const c = root.children.get(key(a));
    if (c !== undefined && c.visits > most) {
      most = c.visits;
      best = a;
    }
  }
  return best;
}
