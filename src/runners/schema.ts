// JSON Schemas of a ruleset's config and actions, for `arbiter schema RULESET` and the server's
// `/api/rulesets/:id/actions`: the ruleset's declared schemas as published. A ruleset without
// declarations (one written before them, a test fixture) gets schemas derived from the menus of a
// few seeded random games instead, one object schema per `type`, and says so in `derived_from`.

import {
  cloneJson,
  publishedActions,
  publishedSchema,
  SeededRandom,
  step,
  type GameEvent,
  type Json,
  type JsonObject,
  type Ruleset,
} from '@arbiter/engine/kernel';

export interface ActionSchemas {
  ruleset: string;
  version: string;
  config: JsonObject | null;
  actions: Record<string, JsonObject>;
  /**
   * Where each action schema comes from: 'template' for a declared family with free parameters
   * (menus publish its template), 'declared' for a declared, enumerated family; 'menus' when derived.
   */
  sources: Record<string, 'template' | 'declared' | 'menus'>;
  /** What the schemas rest on ("the ruleset's declared schemas", or the random games they were derived from). */
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

/** The declared schemas of `rs` as published, or (without declarations) schemas derived from `games` random games. */
export function actionSchemas<S, A extends Json>(rs: Ruleset<S, A>, games = 8, maxSteps = 2000): ActionSchemas {
  if (rs.schemas) {
    const free = new Set(rs.schemas.free ?? []);
    const actions = publishedActions(rs.schemas);
    const sources: ActionSchemas['sources'] = {};
    for (const fam of Object.keys(actions)) sources[fam] = free.has(fam) ? 'template' : 'declared';
    return {
      ruleset: rs.id,
      version: rs.version,
      config: publishedSchema(rs.schemas.config),
      actions,
      sources,
      derived_from: "the ruleset's declared schemas",
    };
  }
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
  }
  const actions: Record<string, JsonObject> = {};
  const sources: ActionSchemas['sources'] = {};
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
    derived_from: `menus of ${games} random games on the default config (${decisions} decisions); the ruleset declares no schemas`,
  };
}

/** The same for a server: declared schemas at once; a derivation gives the event loop a turn first. */
export async function actionSchemasInTurns<S, A extends Json>(rs: Ruleset<S, A>): Promise<ActionSchemas> {
  if (!rs.schemas) await new Promise((ok) => setImmediate(ok));
  return actionSchemas(rs);
}
