// JSON Schemas of a ruleset's actions, for `arbiter schema RULESET`. Families with free parameters
// publish their own schema in the menu's templates; for finite menus the schema is derived from the
// menu elements seen in a few seeded random games: one object schema per `type`, each field
// constrained by what the menus offered (integer ranges, small string sets as enums).

import {
  cloneJson,
  SeededRandom,
  step,
  type GameEvent,
  type Json,
  type JsonObject,
  type Ruleset,
} from '../kernel/index.ts';

export interface ActionSchemas {
  ruleset: string;
  version: string;
  config: JsonObject | null;
  actions: Record<string, JsonObject>;
  /** How each action schema was obtained. */
  sources: Record<string, 'template' | 'menus'>;
  /** What the derived schemas rest on ("menus of 8 random games, 412 decisions"). */
  derived_from: string;
}

const ENUM_LIMIT = 24;
const UNTAGGED = '(untagged)';

function isObject(v: Json | undefined): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function familyOf(a: Json): string {
  return isObject(a) && typeof a.type === 'string' ? a.type : UNTAGGED;
}

function fieldSchema(values: Json[]): JsonObject {
  if (values.every((v) => typeof v === 'number' && Number.isInteger(v))) {
    const nums = values as number[];
    return { type: 'integer', minimum: Math.min(...nums), maximum: Math.max(...nums) };
  }
  if (values.every((v) => typeof v === 'number')) return { type: 'number' };
  if (values.every((v) => typeof v === 'boolean')) return { type: 'boolean' };
  if (values.every((v) => typeof v === 'string')) {
    const set = [...new Set(values as string[])].sort();
    return set.length <= ENUM_LIMIT ? { type: 'string', enum: set } : { type: 'string' };
  }
  if (values.every((v) => Array.isArray(v))) return { type: 'array' };
  if (values.every((v) => isObject(v))) return { type: 'object' };
  if (values.every((v) => v === null)) return { type: 'null' };
  return {};
}

function familySchema(family: string, seen: Json[]): JsonObject {
  if (family === UNTAGGED && !seen.every(isObject)) return {};
  const objects = seen.filter(isObject);
  const keys = [...new Set(objects.flatMap((o) => Object.keys(o)))].sort();
  const properties: JsonObject = {};
  for (const k of keys) {
    if (k === 'type' && family !== UNTAGGED) properties.type = { const: family };
    else properties[k] = fieldSchema(objects.filter((o) => k in o).map((o) => o[k]));
  }
  const required = keys.filter((k) => objects.every((o) => k in o));
  return { type: 'object', properties, required, additionalProperties: false };
}

/** Action schemas of `rs`: templates as published, finite families derived from `games` random games. */
export function actionSchemas<S, A extends Json>(rs: Ruleset<S, A>, games = 8, maxSteps = 2000): ActionSchemas {
  const steps = schemaSteps(rs, games, maxSteps);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * The same, giving the event loop a turn after each random game: a server answers other requests
 * meanwhile (mines' schema takes most of a second of CPU, all in one call otherwise).
 */
export async function actionSchemasInTurns<S, A extends Json>(rs: Ruleset<S, A>): Promise<ActionSchemas> {
  const steps = schemaSteps(rs, 8, 2000);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await new Promise((ok) => setImmediate(ok));
  }
}

/** The derivation, one random game per step. */
function* schemaSteps<S, A extends Json>(
  rs: Ruleset<S, A>,
  games: number,
  maxSteps: number,
): Generator<void, ActionSchemas, void> {
  const seen = new Map<string, Json[]>();
  const keys = new Map<string, Set<string>>();
  const templates = new Map<string, JsonObject>();
  let decisions = 0;
  for (let seed = 1; seed <= games; seed++) {
    const rnd = new SeededRandom(seed);
    const state = rs.setup(cloneJson(rs.defaultConfig), seed);
    for (let n = 0; n < maxSteps && rs.outcome(state) === null; n++) {
      const pending = rs.pending(state);
      if (pending.length === 0) break;
      const seat = pending[0].seat;
      const menu = rs.legal(state, seat);
      for (const t of menu.templates ?? []) if (!templates.has(t.family)) templates.set(t.family, t.schema);
      for (const a of menu.actions) {
        const json: Json = cloneJson(a);
        const fam = familyOf(json);
        const key = JSON.stringify(json);
        const k = keys.get(fam) ?? new Set<string>();
        if (!k.has(key) && k.size < 5000) {
          k.add(key);
          keys.set(fam, k);
          // appended in place: copying the list per new action made mines' 5000-action families quadratic
          const list = seen.get(fam);
          if (list) list.push(json);
          else seen.set(fam, [json]);
        }
      }
      if (menu.actions.length === 0) break;
      decisions++;
      const events: GameEvent[] = [];
      step(rs, state, seat, rnd.pick(menu.actions), events);
    }
    yield;
  }
  const actions: Record<string, JsonObject> = {};
  const sources: Record<string, 'template' | 'menus'> = {};
  for (const fam of [...new Set([...seen.keys(), ...templates.keys()])].sort()) {
    const t = templates.get(fam);
    actions[fam] = t ?? familySchema(fam, seen.get(fam) ?? []);
    sources[fam] = t ? 'template' : 'menus';
  }
  return {
    ruleset: rs.id,
    version: rs.version,
    config: rs.configSchema ?? null,
    actions,
    sources,
    derived_from: `menus of ${games} random games on the default config (${decisions} decisions)`,
  };
}
