// A generic exhaustive explorer: breadth-first search over every reachable state of a bounded
// configuration of any ruleset. It checks per-state invariants, per-transition contracts
// (ruleset.checkTransition), deadlocks (no outcome and nobody can move) and that every menu
// element is accepted, records which branch goals were reached, and reconstructs the shortest
// trace to the first violation (breadth-first order makes the first one found a shortest one).
//
// Memory: only the current and next levels' states are kept (a finished state only as a marker,
// counted as terminal when its level is walked); seen states are remembered by a 64-bit hash of
// their canonical key (ruleset.stateKeyInto's code units when the ruleset has it, else the
// ruleset.stateKey string, else canonical JSON: the same units, so the same hash), and each state
// by (parent, seat, menu index), so a trace is rebuilt by replaying menu choices from the start.
// With `exactKeys` the full keys are kept instead (no hash collisions, more memory), in sharded
// sets so the count is not capped by one JS Set's 2^24 (16,777,216) entries.
//
// Collision risk of the default: with n distinct states and a 64-bit hash the expected number of
// colliding pairs is about n^2 / 2^65 (n = 10^6: 3·10^-8; 10^7: 3·10^-6; 10^8: 3·10^-4). A collision
// can only merge two states (undercount, a state left unexplored), never report a false violation.

import {
  canonicalJson,
  validateAction,
  type GameEvent,
  type Goal,
  type Json,
  type Ruleset,
} from '@arbiter/engine/kernel';

export interface ExploreOptions {
  config?: unknown;
  seed?: number;
  /** Stop (incomplete) once this many distinct states have been seen. */
  maxStates?: number;
  /** Stop (incomplete) below this depth. */
  maxDepth?: number;
  /** Run ruleset.checkTransition on every transition (default true). */
  checkTransitions?: boolean;
  /** Run ruleset.invariants on every state (default true). */
  checkInvariants?: boolean;
  /** Stop after this many violations (default 1: the shortest counterexample). */
  maxViolations?: number;
  goals?: readonly Goal[];
  exactKeys?: boolean;
  /** Also pass every menu element through ruleset.validate and report any refusal (default false:
   * the conformance suite checks menus, and validating each element rebuilds the menu). */
  validateMenus?: boolean;
  /** Called about once a second with progress figures. */
  progress?: (p: { states: number; transitions: number; depth: number }) => void;
}

export interface TraceStep {
  seat: number;
  action: Json;
  events: GameEvent[];
}

export interface Violation {
  kind: 'invariant' | 'transition' | 'deadlock' | 'menu_rejected' | 'error';
  messages: string[];
  depth: number;
  trace: TraceStep[];
}

export interface GoalReport {
  id: string;
  description: string;
  reached: boolean;
  /** Depth of the state the goal's transition leads to (shortest, by BFS order). */
  depth: number | null;
  trace?: TraceStep[];
}

export interface ExploreReport {
  ruleset: string;
  version: string;
  seed: number;
  config: unknown;
  states: number;
  transitions: number;
  terminal: number;
  depth: number;
  complete: boolean;
  /** Wall-clock seconds. */
  seconds: number;
  /** CPU seconds of this process (user + system), the figure states/s is computed from. */
  cpuSeconds: number;
  /** Distinct states per CPU second (a busy machine does not distort it as much as wall time). */
  statesPerSecond: number;
  checks: { transitions: boolean; invariants: boolean };
  goals: GoalReport[];
  violations: Violation[];
}

/**
 * A set of 64-bit string hashes (two 32-bit FNV-style lanes) in open-addressed typed arrays: no
 * per-entry objects, so remembering a million states costs 8 MB and no garbage.
 */
class HashSet64 {
  private a = new Int32Array(1 << 16);
  private b = new Int32Array(1 << 16);
  private used = new Uint8Array(1 << 16);
  size = 0;

  /** Adds the hash of `s`; false when it was already present. */
  add(s: string): boolean {
    let h1 = 0x811c9dc5;
    let h2 = 0x2545f491;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    return this.finish(h1, h2);
  }

  /** The same as `add` of the string made of the first `n` of `units` (no string is built). */
  addUnits(units: Uint16Array, n: number): boolean {
    let h1 = 0x811c9dc5;
    let h2 = 0x2545f491;
    for (let i = 0; i < n; i++) {
      const c = units[i];
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    return this.finish(h1, h2);
  }

  // the two loops above stay separate (string vs buffer) because they are the hot path
  private finish(h1: number, h2: number): boolean {
    h1 ^= h1 >>> 16;
    h1 = Math.imul(h1, 0x85ebca6b);
    h1 ^= h1 >>> 13;
    if ((this.size + 1) * 2 > this.used.length) this.grow();
    return this.insert(h1 | 0, h2 | 0);
  }

  private insert(h1: number, h2: number): boolean {
    const mask = this.used.length - 1;
    let i = (h1 ^ (h2 >>> 7)) & mask;
    while (this.used[i] === 1) {
      if (this.a[i] === h1 && this.b[i] === h2) return false;
      i = (i + 1) & mask;
    }
    this.used[i] = 1;
    this.a[i] = h1;
    this.b[i] = h2;
    this.size++;
    return true;
  }

  private grow(): void {
    const { a, b, used } = this;
    this.a = new Int32Array(a.length * 2);
    this.b = new Int32Array(a.length * 2);
    this.used = new Uint8Array(a.length * 2);
    this.size = 0;
    for (let i = 0; i < used.length; i++) if (used[i] === 1) this.insert(a[i], b[i]);
  }
}

/**
 * Exact remembered keys past the 2^24-entry limit of one `Set`: 256 sets chosen by a hash of the
 * key. Memory is the keys themselves (about 2 bytes per key character plus ~40 bytes per entry).
 */
export class ShardedKeySet {
  private shards: Set<string>[] = Array.from({ length: 256 }, () => new Set<string>());
  size = 0;

  /** Adds `key`; false when it was already present. */
  add(key: string): boolean {
    let h = 0x811c9dc5;
    // the shard needs only a spread, not a good hash: a few characters from both ends suffice
    const n = key.length;
    for (let i = 0; i < 8 && i < n; i++) h = Math.imul(h ^ key.charCodeAt(n - 1 - i), 0x01000193) ^ key.charCodeAt(i);
    const shard = this.shards[(h ^ (h >>> 8) ^ (h >>> 16) ^ (h >>> 24)) & 255];
    const before = shard.size;
    shard.add(key);
    if (shard.size === before) return false;
    this.size++;
    return true;
  }

  /** Entries per shard (for tests of the spread). */
  shardSizes(): number[] {
    return this.shards.map((x) => x.size);
  }
}

/** A typed array of twice the length holding `a` at its start. */
function doubled<T extends Int32Array | Uint8Array | Uint16Array>(a: T): T {
  const b = new (a.constructor as new (n: number) => T)(a.length * 2);
  b.set(a);
  return b;
}

/** Growable typed arrays for the per-state trace links. */
class Links {
  parent = new Int32Array(1 << 16);
  seat = new Uint8Array(1 << 16);
  choice = new Uint16Array(1 << 16);
  n = 0;
  add(parent: number, seat: number, choice: number): number {
    if (this.n === this.parent.length) {
      this.parent = doubled(this.parent);
      this.seat = doubled(this.seat);
      this.choice = doubled(this.choice);
    }
    this.parent[this.n] = parent;
    this.seat[this.n] = seat;
    this.choice[this.n] = choice;
    return this.n++;
  }
}

export function explore(rs: Ruleset, options: ExploreOptions = {}): ExploreReport {
  const seed = options.seed ?? 1;
  const config = options.config ?? {};
  const maxStates = options.maxStates ?? 2_000_000;
  const maxDepth = options.maxDepth ?? Infinity;
  const doCheck = options.checkTransitions !== false && typeof rs.checkTransition === 'function';
  const doInv = options.checkInvariants !== false && typeof rs.invariants === 'function';
  const maxViolations = options.maxViolations ?? 1;
  const validateMenus = options.validateMenus === true;
  const goals = options.goals ?? rs.goals ?? [];
  const keyOf = rs.stateKey ? (s: unknown) => rs.stateKey!(s) : (s: unknown) => canonicalJson(s);
  const clone = rs.clone ? (s: unknown) => rs.clone!(s) : (s: unknown) => JSON.parse(JSON.stringify(s));

  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  const links = new Links();
  const seenHash = new HashSet64();
  const seenExact = new ShardedKeySet();
  const exact = options.exactKeys === true;
  const remember = (key: string): boolean => (exact ? seenExact.add(key) : seenHash.add(key));
  // Fast path: hash the key's code units straight from a reused buffer (ruleset.stateKeyInto writes
  // the same units stateKey returns, so the hashes, and therefore the counts, are the same).
  const keyInto = !exact && rs.stateKeyInto && rs.stateKey ? rs.stateKeyInto.bind(rs) : null;
  let keyBuf = new Uint16Array(512);
  const rememberState =
    keyInto === null
      ? (s: unknown): boolean => remember(keyOf(s))
      : (s: unknown): boolean => {
          let n = keyInto(s, keyBuf);
          if (n > keyBuf.length) {
            keyBuf = new Uint16Array(Math.max(n, keyBuf.length * 2));
            n = keyInto(s, keyBuf);
          }
          return seenHash.addUnits(keyBuf, n);
        };

  const violations: Violation[] = [];
  const goalHit = new Map<string, { link: number; seat: number; choice: number; depth: number }>();
  /** Goals not reached yet (tested on each transition until reached). */
  let openGoals: Goal[] = goals.slice();
  let transitions = 0;
  let terminal = 0;
  let depth = 0;
  let complete = true;
  let lastProgress = Date.now();

  const traceTo = (link: number, extra?: { seat: number; choice: number }): TraceStep[] => {
    const path: { seat: number; choice: number }[] = [];
    for (let i = link; i > 0; i = links.parent[i]) path.push({ seat: links.seat[i], choice: links.choice[i] });
    path.reverse();
    if (extra) path.push(extra);
    const s = rs.setup(config, seed);
    const out: TraceStep[] = [];
    for (const p of path) {
      const action = rs.legal(s, p.seat).actions[p.choice];
      const events: GameEvent[] = [];
      rs.apply(s, p.seat, action, events);
      out.push({ seat: p.seat, action: action, events });
    }
    return out;
  };
  const violate = (
    kind: Violation['kind'],
    messages: string[],
    d: number,
    link: number,
    extra?: { seat: number; choice: number },
  ) => {
    violations.push({ kind, messages, depth: d, trace: traceTo(link, extra) });
  };

  const start = rs.setup(config, seed);
  rememberState(start);
  // A finished state is never expanded, so the frontier keeps only this marker in its place (the
  // state itself can be collected at once instead of living, and being copied, until its level is
  // walked). Live entries are states whose outcome was null when they were found.
  const TERMINAL = {};
  let frontier: unknown[] = [rs.outcome(start) !== null ? TERMINAL : start];
  let frontierLinks: number[] = [links.add(-1, 0, 0)];
  if (doInv) {
    const bad = rs.invariants!(start);
    if (bad.length) violate('invariant', bad, 0, 0);
  }

  const events: GameEvent[] = [];
  outer: while (frontier.length > 0 && violations.length < maxViolations) {
    if (depth >= maxDepth) {
      complete = false;
      break;
    }
    const next: unknown[] = [];
    const nextLinks: number[] = [];
    for (let fi = 0; fi < frontier.length; fi++) {
      const s = frontier[fi];
      // drop the frontier's reference: an expanded state can be collected while the level goes on
      frontier[fi] = undefined;
      const link = frontierLinks[fi];
      if (s === TERMINAL) {
        terminal++;
        continue;
      }
      const pend = rs.pending(s);
      let moves = 0;
      for (const p of pend) {
        const actions = rs.legal(s, p.seat).actions;
        for (let ci = 0; ci < actions.length; ci++) {
          const action = actions[ci];
          moves++;
          transitions++;
          let chosen = action;
          if (validateMenus) {
            const checked = validateAction(rs, s, p.seat, action);
            if (!checked.ok) {
              violate(
                'menu_rejected',
                [`menu action ${canonicalJson(action)} rejected: ${checked.error.code} ${checked.error.reason}`],
                depth,
                link,
              );
              if (violations.length >= maxViolations) break outer;
              continue;
            }
            chosen = checked.action;
          }
          const after = clone(s);
          // one events array, emptied per transition: goals and checkTransition read it only
          // during their call, and traces are rebuilt by replay
          events.length = 0;
          try {
            rs.apply(after, p.seat, chosen, events);
          } catch (err) {
            violate('error', [`apply threw: ${(err as Error).message}`], depth + 1, link, { seat: p.seat, choice: ci });
            if (violations.length >= maxViolations) break outer;
            continue;
          }
          // goals first, so a transition that also breaks a contract still counts as reaching them
          if (openGoals.length > 0) {
            let reached = false;
            for (const g of openGoals) {
              if (!goalHit.has(g.id) && g.hit(events, s, after)) {
                goalHit.set(g.id, { link, seat: p.seat, choice: ci, depth: depth + 1 });
                reached = true;
              }
            }
            if (reached) openGoals = openGoals.filter((g) => !goalHit.has(g.id));
          }
          if (doCheck) {
            const bad = rs.checkTransition!(s, after, p.seat, chosen, events);
            if (bad.length) {
              violate('transition', bad, depth + 1, link, { seat: p.seat, choice: ci });
              if (violations.length >= maxViolations) break outer;
            }
          }
          if (!rememberState(after)) continue;
          const childLink = links.add(link, p.seat, ci);
          if (doInv) {
            const bad = rs.invariants!(after);
            if (bad.length) {
              violate('invariant', bad, depth + 1, childLink);
              if (violations.length >= maxViolations) break outer;
            }
          }
          next.push(rs.outcome(after) !== null ? TERMINAL : after);
          nextLinks.push(childLink);
          if (links.n >= maxStates) {
            complete = false;
            break outer;
          }
        }
      }
      if (moves === 0) {
        violate('deadlock', [`no outcome and no seat can move (pending: ${canonicalJson(pend)})`], depth, link);
        if (violations.length >= maxViolations) break outer;
      }
      if (options.progress && (fi & 1023) === 0 && Date.now() - lastProgress > 1000) {
        lastProgress = Date.now();
        options.progress({ states: links.n, transitions, depth });
      }
    }
    frontier = next;
    frontierLinks = nextLinks;
    if (next.length > 0) depth++;
  }
  if (violations.length >= maxViolations && frontier.length > 0) complete = false;
  for (const v of violations) depth = Math.max(depth, v.depth);

  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(c0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return {
    ruleset: rs.id,
    version: rs.version,
    seed,
    config,
    states: links.n,
    transitions,
    terminal,
    depth,
    complete,
    seconds: Math.round(seconds * 1000) / 1000,
    cpuSeconds: Math.round(cpuSeconds * 1000) / 1000,
    statesPerSecond: Math.round(links.n / Math.max(cpuSeconds, 1e-9)),
    checks: { transitions: doCheck, invariants: doInv },
    goals: goals.map((g) => {
      const h = goalHit.get(g.id);
      return h
        ? {
            id: g.id,
            description: g.description,
            reached: true,
            depth: h.depth,
            trace: traceTo(h.link, { seat: h.seat, choice: h.choice }),
          }
        : { id: g.id, description: g.description, reached: false, depth: null };
    }),
    violations,
  };
}

/**
 * Goals judged over several runs (presets) together: reached when any run reached it, at the
 * smallest depth (and that run's trace).
 */
export function mergeGoals(reports: readonly ExploreReport[]): GoalReport[] {
  const out = new Map<string, GoalReport>();
  for (const r of reports) {
    for (const g of r.goals) {
      const prev = out.get(g.id);
      if (prev === undefined || (g.reached && (!prev.reached || (g.depth ?? Infinity) < (prev.depth ?? Infinity))))
        out.set(g.id, g);
    }
  }
  return [...out.values()];
}

/** The goal lines of a report (or of merged goals) under a heading. */
export function formatGoals(goals: readonly GoalReport[], heading = 'goals'): string {
  const lines = [`  ${heading} ${goals.filter((g) => g.reached).length}/${goals.length}:`];
  for (const g of goals)
    lines.push(
      `    ${g.reached ? 'reached' : 'MISSED '} ${g.id}${g.reached ? ` (depth ${g.depth})` : ''}: ${g.description}`,
    );
  return lines.join('\n');
}

/** A readable report; traces show each step's seat, action and event types. */
export function formatReport(r: ExploreReport, describe?: (e: GameEvent) => string): string {
  const lines: string[] = [];
  lines.push(
    `explore ${r.ruleset} (${r.version}) seed ${r.seed}: ${r.complete ? 'exhausted' : 'INCOMPLETE (bound reached or stopped)'}`,
  );
  lines.push(`  states ${r.states}, transitions ${r.transitions}, terminal ${r.terminal}, depth ${r.depth}`);
  lines.push(
    `  ${r.seconds} s wall, ${r.cpuSeconds} s CPU, ${r.statesPerSecond} states per CPU second (checks: transitions ${r.checks.transitions ? 'on' : 'off'}, invariants ${r.checks.invariants ? 'on' : 'off'})`,
  );
  if (r.goals.length) lines.push(formatGoals(r.goals));
  if (r.violations.length === 0) lines.push('  violations: none');
  for (const v of r.violations) {
    lines.push(`  VIOLATION (${v.kind}) at depth ${v.depth}:`);
    for (const m of v.messages) lines.push(`    ${m}`);
    lines.push('    shortest trace:');
    v.trace.forEach((t, i) => {
      lines.push(`      ${i + 1}. seat ${t.seat} ${canonicalJson(t.action)}`);
      for (const e of t.events) lines.push(`           ${describe ? describe(e) : canonicalJson(e)}`);
    });
  }
  return lines.join('\n');
}
