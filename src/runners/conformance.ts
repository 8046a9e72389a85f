// The generic conformance checks every registered ruleset must pass, in the spirit of
// OpenSpiel's random-simulation tests. Each check returns a list of problems (empty = pass),
// each naming the seed and step so it can be replayed.

import fc from 'fast-check';
import {
  act,
  ArbiterError,
  canonicalJson,
  secretsIn,
  isPlainJson,
  publishedActions,
  publishedSchema,
  SeededRandom,
  type GameEvent,
  type Json,
  type JsonObject,
  type Ruleset,
} from '@arbiter/engine/kernel';
import { hashEvents } from '@arbiter/engine/match';

const CODES = new Set(['bad_request', 'illegal', 'out_of_turn', 'game_over']);

export interface ConformanceOptions {
  config?: Json;
  games?: number;
  firstSeed?: number;
  maxActions?: number;
  /** Check views and secrets every `viewEvery` steps (1 = every step). */
  viewEvery?: number;
}

/** Random games to the end through the checked path, with every per-step check. */
export function randomGames<S>(rs: Ruleset<S>, opts: ConformanceOptions = {}): string[] {
  const problems: string[] = [];
  const games = opts.games ?? 10;
  const first = opts.firstSeed ?? 1;
  const viewEvery = opts.viewEvery ?? 1;
  for (let seed = first; seed < first + games && problems.length < 5; seed++) {
    const where = (n: number) => `${rs.id} seed ${seed} step ${n}`;
    let state = rs.setup(opts.config ?? {}, seed);
    const rnd = new SeededRandom(seed ^ 0x5a5a5a5a);
    let n = 0;
    const max = opts.maxActions ?? 20000;
    for (; n < max; n++) {
      if (!isPlainJson(state)) {
        problems.push(`${where(n)}: state is not plain JSON`);
        break;
      }
      const text = canonicalJson(state);
      if (canonicalJson(JSON.parse(JSON.stringify(state))) !== text) {
        problems.push(`${where(n)}: state does not survive a JSON round trip`);
        break;
      }
      // a ruleset's own fast copy must be the same JSON, keys in the same order (act() checks below
      // that the copy is independent: acting on it must leave the original as it was)
      if (rs.clone && JSON.stringify(rs.clone(state)) !== JSON.stringify(state)) {
        problems.push(`${where(n)}: clone() differs from the state (a field is missing, changed or reordered)`);
        break;
      }
      for (const inv of rs.invariants?.(state) ?? []) problems.push(`${where(n)}: invariant violated: ${inv}`);
      if (n % viewEvery === 0) {
        const seats = rs.seats(state);
        for (let s = -1; s < seats; s++) {
          const seat = s < 0 ? null : s;
          const view = rs.view(state, seat);
          if (!isPlainJson(view)) problems.push(`${where(n)}: view of ${seat} is not plain JSON`);
          for (const secret of secretsIn(view, rs.secrets?.(state, seat) ?? []))
            problems.push(
              `${where(n)}: view of seat ${seat} contains a secret: ${canonicalJson(secret).slice(0, 200)}`,
            );
        }
        if (canonicalJson(state) !== text) problems.push(`${where(n)}: view() changed the state`);
      }
      const outcome = rs.outcome(state);
      const pending = rs.pending(state);
      if (outcome !== null) {
        if (pending.length !== 0) problems.push(`${where(n)}: game over but pending is not empty`);
        const r = act(rs, state, 0, {});
        if (r.ok || r.error.code !== 'game_over')
          problems.push(`${where(n)}: input after the end was not refused as game_over`);
        break;
      }
      if (pending.length === 0) {
        problems.push(`${where(n)}: no outcome and nobody pending (deadlock)`);
        break;
      }
      const pendingSeats = new Set(pending.map((p) => p.seat));
      for (let s = 0; s < rs.seats(state); s++) {
        if (pendingSeats.has(s)) continue;
        const menu = rs.legal(state, s);
        if (menu.actions.length > 0) problems.push(`${where(n)}: seat ${s} is not pending but has a menu`);
        const r = act(rs, state, s, menu.actions[0] ?? {});
        if (r.ok || r.error.code !== 'out_of_turn')
          problems.push(`${where(n)}: seat ${s} acted out of turn without an out_of_turn refusal`);
      }
      const p = pending[rnd.int(pending.length)];
      const menu = rs.legal(state, p.seat);
      if (menu.actions.length === 0) {
        problems.push(`${where(n)}: seat ${p.seat} pending (${p.kind}) with an empty menu`);
        break;
      }
      // a couple of other menu elements must be accepted too (checked on a copy; nothing changes)
      for (let k = 0; k < 2 && menu.actions.length > 1; k++) {
        const other = menu.actions[rnd.int(menu.actions.length)];
        const r = act(rs, state, p.seat, JSON.parse(JSON.stringify(other)));
        if (!r.ok)
          problems.push(`${where(n)}: menu action ${canonicalJson(other).slice(0, 200)} refused: ${r.error.reason}`);
      }
      const choice = menu.actions[rnd.int(menu.actions.length)];
      const res = act(rs, state, p.seat, JSON.parse(JSON.stringify(choice)));
      if (canonicalJson(state) !== text) {
        problems.push(`${where(n)}: act() mutated its input state`);
        break;
      }
      if (!res.ok) {
        problems.push(
          `${where(n)}: menu action ${canonicalJson(choice).slice(0, 200)} refused: ${res.error.code} ${res.error.reason}`,
        );
        break;
      }
      if (!res.events.every((e) => typeof e.type === 'string' && isPlainJson(e)))
        problems.push(`${where(n)}: an event lacks a string type or is not plain JSON`);
      for (const c of rs.checkTransition?.(state, res.state, p.seat, choice, res.events) ?? [])
        problems.push(`${where(n)}: contract violated: ${c}`);
      state = res.state;
    }
    if (n >= max) problems.push(`${rs.id} seed ${seed}: no end after ${max} actions`);
  }
  return problems;
}

/**
 * Determinization (`sampleState`), when the ruleset has it: along random games, a state sampled
 * from a pending seat's view must give that seat the same view and the same menu, be plain JSON,
 * and play on to an end. Rulesets without it pass trivially (search agents refuse them).
 */
export function sampling<S>(rs: Ruleset<S>, opts: ConformanceOptions = {}): string[] {
  const problems: string[] = [];
  if (!rs.sampleState) return problems;
  const games = opts.games ?? 4;
  const first = opts.firstSeed ?? 1;
  for (let seed = first; seed < first + games && problems.length < 5; seed++) {
    const state = rs.setup(opts.config ?? {}, seed);
    const rnd = new SeededRandom(seed ^ 0x3c3c3c3c);
    for (let n = 0; n < (opts.maxActions ?? 2000) && rs.outcome(state) === null; n++) {
      const pending = rs.pending(state);
      if (pending.length === 0) break;
      const p = pending[rnd.int(pending.length)];
      const view = rs.view(state, p.seat);
      const before = canonicalJson(state);
      const sampled = rs.sampleState(view, p.seat, new SeededRandom(seed * 7919 + n));
      const where = `${rs.id} seed ${seed} step ${n} seat ${p.seat}`;
      if (canonicalJson(state) !== before) problems.push(`${where}: sampleState changed the real state`);
      if (!isPlainJson(sampled)) problems.push(`${where}: a sampled state is not plain JSON`);
      else if (canonicalJson(rs.view(sampled, p.seat)) !== canonicalJson(view))
        problems.push(`${where}: a sampled state shows the seat a different view`);
      else if (canonicalJson(rs.legal(sampled, p.seat)) !== canonicalJson(rs.legal(state, p.seat)))
        problems.push(`${where}: a sampled state gives the seat a different menu`);
      if (problems.length > 0) break;
      const menu = rs.legal(state, p.seat).actions;
      rs.apply(state, p.seat, menu[rnd.int(menu.length)], []);
    }
  }
  return problems;
}

/** Plays a seeded random game through `act`, returning its events. */
function seededGame<S>(rs: Ruleset<S>, seed: number, config: Json, resumeAt = -1): GameEvent[] {
  const events: GameEvent[] = [];
  let state = rs.setup(config, seed, events);
  const rnd = new SeededRandom(seed ^ 0x3c3c3c3c);
  for (let n = 0; n < 20000 && rs.outcome(state) === null; n++) {
    if (n === resumeAt) state = JSON.parse(JSON.stringify(state)); // save and resume mid-game
    const pending = rs.pending(state);
    if (pending.length === 0) break;
    const p = pending[rnd.int(pending.length)];
    const menu = rs.legal(state, p.seat);
    const res = act(rs, state, p.seat, menu.actions[rnd.int(menu.actions.length)]);
    if (!res.ok) throw new Error(`${rs.id} seed ${seed}: refused menu action: ${res.error.reason}`);
    events.push(...res.events);
    state = res.state;
  }
  return events;
}

/** Same seed ⇒ same event-stream hash, also across a JSON save/resume in the middle. */
export function determinism<S>(rs: Ruleset<S>, opts: ConformanceOptions = {}): string[] {
  const problems: string[] = [];
  const config = opts.config ?? {};
  for (let seed = opts.firstSeed ?? 1; seed < (opts.firstSeed ?? 1) + 3; seed++) {
    const a = seededGame(rs, seed, config);
    const b = seededGame(rs, seed, config);
    const c = seededGame(rs, seed, config, Math.floor(a.length / 3));
    if (hashEvents(a) !== hashEvents(b)) problems.push(`${rs.id} seed ${seed}: two runs gave different event streams`);
    if (hashEvents(a) !== hashEvents(c))
      problems.push(`${rs.id} seed ${seed}: a JSON save/resume changed the event stream`);
  }
  const s1 = canonicalJson(rs.setup(config, 1));
  const s2 = canonicalJson(rs.setup(config, 1));
  if (s1 !== s2) problems.push(`${rs.id}: setup is not deterministic`);
  return problems;
}

/** Bad configs and seeds are refused with ArbiterError('bad_config'). */
export function badConfigs<S>(rs: Ruleset<S>): string[] {
  const problems: string[] = [];
  for (const bad of [42, 'text', [1, 2], true]) {
    try {
      rs.setup(bad, 1);
      problems.push(`${rs.id}: setup accepted config ${JSON.stringify(bad)}`);
    } catch (err) {
      if (!(err instanceof ArbiterError) || err.code !== 'bad_config')
        problems.push(`${rs.id}: config ${JSON.stringify(bad)} gave ${String(err)} instead of a bad_config error`);
    }
  }
  for (const seed of [-1, 1.5, 2 ** 32, NaN]) {
    try {
      rs.setup({}, seed);
      problems.push(`${rs.id}: setup accepted seed ${seed}`);
    } catch (err) {
      if (!(err instanceof ArbiterError))
        problems.push(`${rs.id}: seed ${seed} gave ${String(err)} instead of an ArbiterError`);
    }
  }
  return problems;
}

/** Positions reached by seeded random play, to fuzz input against. */
function samplePositions<S>(rs: Ruleset<S>, config: Json, count: number): S[] {
  const out: S[] = [];
  let state = rs.setup(config, 7);
  const rnd = new SeededRandom(99);
  for (let n = 0; out.length < count && n < 5000; n++) {
    if (rs.outcome(state) !== null) state = rs.setup(config, 7 + n);
    if (n % 3 === 0) out.push(state);
    const pending = rs.pending(state);
    const p = pending[rnd.int(pending.length)];
    const menu = rs.legal(state, p.seat);
    const r = act(rs, state, p.seat, menu.actions[rnd.int(menu.actions.length)]);
    if (!r.ok) break;
    state = r.state;
  }
  return out;
}

function mutate(action: Json, pick: number, junk: Json): Json {
  if (action === null || typeof action !== 'object' || Array.isArray(action)) return junk;
  const copy: Record<string, Json> = JSON.parse(JSON.stringify(action));
  const keys = Object.keys(copy);
  const mode = pick % 4;
  if (mode === 0 || keys.length === 0)
    copy[`x_${pick % 7}`] = junk; // an extra field
  else if (mode === 1)
    delete copy[keys[pick % keys.length]]; // a missing field
  else copy[keys[pick % keys.length]] = junk; // a field of the wrong value or type
  return copy;
}

/**
 * Fuzzed input (arbitrary JSON, and menu actions with one field broken) is either refused with a
 * typed code and no change, or — only where the menu is finite — equal to a menu action.
 */
export function fuzzInput<S>(
  rs: Ruleset<S>,
  opts: ConformanceOptions & { runs?: number; seed?: number } = {},
): string[] {
  const problems: string[] = [];
  const positions = samplePositions(rs, opts.config ?? {}, 12);
  if (positions.length === 0) return [`${rs.id}: no positions to fuzz`];
  const check = (state: S, seat: number, input: unknown): string | null => {
    const before = canonicalJson(state);
    let r;
    try {
      r = act(rs, state, seat, input);
    } catch (err) {
      return `act threw on ${String(canonicalJson(input ?? null)).slice(0, 120)}: ${(err as Error).message}`;
    }
    if (canonicalJson(state) !== before)
      return `act changed its input state for ${canonicalJson(input ?? null).slice(0, 120)}`;
    if (!r.ok) {
      if (!CODES.has(r.error.code)) return `untyped rejection code ${r.error.code}`;
      if (typeof r.error.reason !== 'string' || r.error.reason.length === 0) return 'a rejection without a reason';
      return null;
    }
    const menu = rs.legal(state, seat);
    if (menu.templates && menu.templates.length > 0) return null; // free parameters: may be a valid fill
    const key = canonicalJson(input);
    if (!menu.actions.some((a) => canonicalJson(a) === key))
      return `accepted input not on the finite menu: ${key.slice(0, 160)}`;
    return null;
  };
  const junk = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom<Json>(-1, 1e9, 1.5, '', 'x'.repeat(5000), null, [], {}),
  );
  try {
    fc.assert(
      fc.property(fc.nat(positions.length - 1), fc.nat(), fc.nat(), junk, (pi, seatPick, pick, j) => {
        const state = positions[pi];
        const pending = rs.pending(state);
        const seat = pending.length > 0 ? pending[seatPick % pending.length].seat : 0;
        const menu = rs.legal(state, seat).actions;
        const inputs: unknown[] = [j];
        if (menu.length > 0) inputs.push(mutate(menu[pick % menu.length] as Json, pick, j as Json));
        for (const input of inputs) {
          const p = check(state, seat, input);
          if (p) throw new Error(p);
        }
        return true;
      }),
      { seed: opts.seed ?? 0x5eed, numRuns: opts.runs ?? 300 },
    );
  } catch (err) {
    problems.push(`${rs.id}: ${(err as Error).message.split('\n').slice(0, 6).join(' | ')}`);
  }
  // seats that do not exist, and non-integer seats, are bad requests
  const s0 = positions[0];
  for (const seat of [-1, rs.seats(s0), 1.5, '0', null]) {
    const r = act(rs, s0, seat, {});
    if (r.ok || r.error.code !== 'bad_request')
      problems.push(`${rs.id}: seat ${JSON.stringify(seat)} was not refused as bad_request`);
  }
  return problems;
}

/** A JSON Schema validator (a test passes ajv's draft 2020-12 one): null when the value fits, else why not. */
export type SchemaCheck = (value: unknown) => string | null;
export type CompileSchema = (schema: JsonObject) => SchemaCheck;

/**
 * The declared schemas hold: the published config schema is the declared one and accepts every
 * given config; along seeded random games on those configs every menu element is of a declared
 * family and fits its published JSON Schema (checked by an independent validator, `compile`), each
 * published template is a declared free family with an example that fits; and every declared
 * family turns up on some menu, every free one as a template.
 */
export function schemaConformance<S>(
  rs: Ruleset<S>,
  compile: CompileSchema,
  opts: { configs?: Json[]; games?: number; maxActions?: number } = {},
): string[] {
  const problems: string[] = [];
  const schemas = rs.schemas;
  if (!schemas) return [`${rs.id}: declares no schemas`];
  const config = publishedSchema(schemas.config);
  if (rs.configSchema && canonicalJson(rs.configSchema) !== canonicalJson(config))
    problems.push(`${rs.id}: configSchema differs from the declared config schema`);
  const configOk = compile(config);
  const checks = new Map(Object.entries(publishedActions(schemas)).map(([f, s]) => [f, compile(s)]));
  const free = new Set(schemas.free ?? []);
  for (const f of free) if (!checks.has(f)) problems.push(`${rs.id}: free family "${f}" is not declared`);
  const seen = new Set<string>();
  const templated = new Set<string>();
  const configs = opts.configs ?? [{}];
  const games = opts.games ?? 8;
  const fail = (p: string) => {
    if (problems.length < 10) problems.push(p);
  };
  for (const [ci, cfg] of configs.entries()) {
    const why = configOk(cfg);
    if (why)
      fail(
        `${rs.id}: config #${ci} ${canonicalJson(cfg).slice(0, 80)} does not fit the published config schema: ${why}`,
      );
    for (let seed = 1; seed <= games; seed++) {
      let state = rs.setup(cfg, seed);
      const rnd = new SeededRandom(seed ^ 0x2b2b2b2b);
      for (let n = 0; n < (opts.maxActions ?? 3000) && rs.outcome(state) === null; n++) {
        const pending = rs.pending(state);
        if (pending.length === 0) break;
        const where = `${rs.id} config #${ci} seed ${seed} step ${n}`;
        for (const p of pending) {
          const menu = rs.legal(state, p.seat);
          for (const a of menu.actions) {
            const fam = a !== null && typeof a === 'object' && !Array.isArray(a) ? a.type : undefined;
            const check = typeof fam === 'string' ? checks.get(fam) : undefined;
            if (typeof fam !== 'string' || !check) {
              fail(`${where}: menu element ${canonicalJson(a).slice(0, 120)} is of no declared family`);
              continue;
            }
            seen.add(fam);
            const bad = check(a);
            if (bad)
              fail(`${where}: menu element ${canonicalJson(a).slice(0, 120)} is outside its family "${fam}": ${bad}`);
          }
          for (const t of menu.templates ?? []) {
            templated.add(t.family);
            if (!free.has(t.family)) fail(`${where}: template "${t.family}" is not a declared free family`);
            const bad = checks.get(t.family)?.(t.example);
            if (bad) fail(`${where}: the example of template "${t.family}" is outside its family: ${bad}`);
          }
        }
        const p = pending[rnd.int(pending.length)];
        const menu = rs.legal(state, p.seat).actions;
        const r = act(rs, state, p.seat, menu[rnd.int(menu.length)]);
        if (!r.ok) break; // randomGames reports refused menu elements
        state = r.state;
      }
    }
  }
  for (const f of checks.keys()) if (!seen.has(f)) fail(`${rs.id}: declared family "${f}" appeared on no menu`);
  for (const f of free) if (!templated.has(f)) fail(`${rs.id}: free family "${f}" was never published as a template`);
  return problems;
}
