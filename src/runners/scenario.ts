// Runs one scenario: setup + state overrides, then the steps through the checked `act`, checking
// each expectation. Failures say where (file, step, path) and show expected vs actual.

import {
  act,
  ArbiterError,
  canonicalJson,
  cloneJson,
  getPath,
  isPrototypeKey,
  parseDeclared,
  type GameEvent,
  type Ruleset,
  type Json,
} from '@arbiter/engine/kernel';
import { findSubsequence, matches, partialMatch, show } from './match-partial.ts';
import type { LoadedScenario, Scenario, ScenarioExpect } from './scenario-file.ts';

export interface ScenarioResult {
  id: string;
  file: string;
  ruleset: string;
  ok: boolean;
  provisional: boolean;
  covers: string[];
  steps: number;
  failure?: string;
  /** U-items the run's events say decided an outcome (events carry `u`: an id or a list of ids). */
  relies?: string[];
}

/** The U-item ids an event names in its `u` field. */
function uItemsOf(e: GameEvent): string[] {
  const u = e.u;
  if (typeof u === 'string') return [u];
  if (Array.isArray(u)) return u.filter((x): x is string => typeof x === 'string');
  return [];
}

class Failure extends Error {}

function fail(msg: string): never {
  throw new Failure(msg);
}

/** Runs `loaded` against `rs`, the ruleset the scenario names (the caller resolves the name once). */
export function runScenario<S, A extends Json>(loaded: LoadedScenario, rs: Ruleset<S, A>): ScenarioResult {
  const { scenario: sc, file } = loaded;
  const base = { id: sc.id, file, ruleset: sc.ruleset, provisional: sc.provisional, covers: sc.covers };
  let stepNo = 0;
  try {
    if (sc.ruleset !== rs.id) fail(`the scenario names ruleset "${sc.ruleset}", but it was run against ${rs.id}`);
    checkIds(rs, sc);
    let state = rs.setup(sc.setup.config, sc.setup.seed);
    state = applyOverrides(state, sc.setup.state);
    // a hand-written state is checked against the declared state schema before anything reads it
    if (Object.keys(sc.setup.state).length > 0 && rs.schemas?.state)
      parseDeclared(rs.schemas.state, state, 'bad_config', 'setup.state');
    const all: GameEvent[] = [];
    for (const st of sc.steps) {
      stepNo++;
      if ('expect' in st) {
        checkExpect(rs, state, all, st.expect, `step ${stepNo} (expect)`);
        continue;
      }
      const before = canonicalJson(state);
      const res = act(rs, state, st.seat, st.action);
      const where = `step ${stepNo} (seat ${st.seat}, action ${show(st.action)})`;
      if (st.reject) {
        if (res.ok)
          fail(`${where}: expected rejection "${st.reject}", but it was accepted with events ${show(res.events)}`);
        if (res.error.code !== st.reject)
          fail(`${where}: expected rejection code "${st.reject}", got "${res.error.code}": ${res.error.reason}`);
        if (st.reason && !res.error.reason.includes(st.reason))
          fail(`${where}: rejection reason ${show(res.error.reason)} does not contain ${show(st.reason)}`);
        if (st.detail !== undefined) {
          const m = partialMatch(st.detail, res.error.detail, 'detail');
          if (m) fail(`${where}: rejection ${m.path}: expected ${show(m.expected)}, actual ${show(m.actual)}`);
        }
        if (canonicalJson(state) !== before) fail(`${where}: a rejected action changed the state`);
        continue;
      }
      if (!res.ok)
        fail(
          `${where}: expected acceptance, got ${res.error.code}: ${res.error.reason}${res.error.detail ? ' ' + show(res.error.detail) : ''}`,
        );
      if (st.events) {
        if (st.events_exact) {
          if (st.events.length !== res.events.length || !st.events.every((e, i) => matches(e, res.events[i]))) {
            fail(
              `${where}: events differ.\n  expected exactly: ${show(st.events)}\n  actual:           ${show(res.events)}`,
            );
          }
        } else {
          const sub = findSubsequence(st.events, res.events);
          if (!sub.ok)
            fail(
              `${where}: expected event #${sub.missing} ${show(st.events[sub.missing])} (in order) not found.\n  actual events: ${show(res.events)}`,
            );
        }
      }
      state = res.state;
      all.push(...res.events);
    }
    if (sc.expect) checkExpect(rs, state, all, sc.expect, 'final expect');
    // every evidence file lists the U-items it relies on: an event decided by a U-item's default
    // that the scenario does not name in `underdetermined` fails it
    const relies = [...new Set(all.flatMap(uItemsOf))].sort();
    const unlisted = relies.filter((u) => !sc.underdetermined.includes(u));
    if (unlisted.length) {
      const where = all
        .filter((e) => uItemsOf(e).some((u) => unlisted.includes(u)))
        .slice(0, 3)
        .map((e) => show(e));
      fail(
        `relies on ${unlisted.join(', ')} without listing ${unlisted.length > 1 ? 'them' : 'it'} in underdetermined (decided: ${where.join('; ')})`,
      );
    }
    return { ...base, ok: true, steps: sc.steps.length, relies };
  } catch (err) {
    if (err instanceof Failure) return { ...base, ok: false, steps: stepNo, failure: err.message };
    if (err instanceof ArbiterError)
      return { ...base, ok: false, steps: stepNo, failure: `${err.code}: ${err.message}` };
    return { ...base, ok: false, steps: stepNo, failure: `crash: ${(err as Error).stack ?? String(err)}` };
  }
}

function checkIds<S, A extends Json>(rs: Ruleset<S, A>, sc: Scenario) {
  const ruleIds = new Set(rs.catalog.rules.map((r) => r.id));
  const uIds = new Set(rs.catalog.uItems.map((u) => u.id));
  for (const id of sc.covers)
    if (!ruleIds.has(id) && !uIds.has(id)) fail(`covers names "${id}", which is not a rule id of ${rs.id}`);
  for (const id of sc.underdetermined)
    if (!uIds.has(id)) fail(`underdetermined names "${id}", which is not a U-item of ${rs.id}`);
}

function applyOverrides<S>(state: S, overrides: Record<string, unknown>): S {
  const keys = Object.keys(overrides);
  if (keys.length === 0) return state;
  const next = cloneJson(state) as Record<string, unknown>;
  for (const path of keys) {
    const parts = path.split('.');
    // a path through __proto__ would write to every object's prototype (issue 11)
    if (parts.some(isPrototypeKey))
      fail(`setup.state: path "${path}" holds a key that is not allowed (__proto__, constructor, prototype)`);
    let cur: Record<string, unknown> = next;
    for (let i = 0; i < parts.length - 1; i++) {
      const child = Object.hasOwn(cur, parts[i]) ? cur[parts[i]] : undefined;
      if (child === null || typeof child !== 'object')
        fail(
          `setup.state: path "${path}" does not exist in the initial state (at "${parts.slice(0, i + 1).join('.')}")`,
        );
      cur = child as Record<string, unknown>;
    }
    cur[parts[parts.length - 1]] = cloneJson(overrides[path]);
  }
  return next as S;
}

function checkExpect<S, A extends Json>(
  rs: Ruleset<S, A>,
  state: S,
  events: GameEvent[],
  ex: ScenarioExpect,
  where: string,
) {
  for (const [path, want] of Object.entries(ex.state ?? {})) {
    const m = partialMatch(want, getPath(state, path), path);
    if (m) fail(`${where}: state ${m.path}: expected ${show(m.expected)}, actual ${show(m.actual)}`);
  }
  for (const [who, paths] of Object.entries(ex.view ?? {})) {
    const seat = who === 'spectator' ? null : Number(who);
    if (seat !== null && !Number.isInteger(seat))
      fail(`${where}: view key "${who}" is not a seat number or "spectator"`);
    const view = rs.view(state, seat);
    for (const [path, want] of Object.entries(paths)) {
      const m = partialMatch(want, getPath(view, path), path);
      if (m) fail(`${where}: view of ${who}: ${m.path}: expected ${show(m.expected)}, actual ${show(m.actual)}`);
    }
  }
  if (ex.events) {
    const sub = findSubsequence(ex.events, events);
    if (!sub.ok)
      fail(
        `${where}: expected event #${sub.missing} ${show(ex.events[sub.missing])} (in order) not found in the ${events.length} events so far: ${show(events.map((e) => e.type))}`,
      );
  }
  for (const bad of ex.events_absent ?? []) {
    const hit = events.find((e) => matches(bad, e));
    if (hit) fail(`${where}: event ${show(hit)} matches events_absent entry ${show(bad)}`);
  }
  if (ex.pending) {
    const m = partialMatch(ex.pending, rs.pending(state), 'pending');
    if (m) fail(`${where}: ${m.path}: expected ${show(m.expected)}, actual ${show(m.actual)}`);
  }
  if ('outcome' in ex && ex.outcome !== undefined) {
    const out = rs.outcome(state);
    if (ex.outcome === null) {
      if (out !== null) fail(`${where}: expected the game to be running, but it ended: ${show(out)}`);
    } else {
      const m = partialMatch(ex.outcome, out, 'outcome');
      if (m) fail(`${where}: ${m.path}: expected ${show(m.expected)}, actual ${show(m.actual)}`);
    }
  }
  for (const [who, spec] of Object.entries(ex.legal ?? {})) {
    const menu = rs.legal(state, Number(who)).actions;
    for (const a of spec.includes ?? [])
      if (!menu.some((m) => matches(a, m))) fail(`${where}: menu of seat ${who} lacks ${show(a)}; it is ${show(menu)}`);
    for (const a of spec.excludes ?? []) {
      const hit = menu.find((m) => matches(a, m));
      if (hit) fail(`${where}: menu of seat ${who} offers ${show(hit)}, which matches excluded ${show(a)}`);
    }
    if (spec.count !== undefined && menu.length !== spec.count)
      fail(`${where}: menu of seat ${who} has ${menu.length} actions, expected ${spec.count}`);
  }
}
