// Tools offered to a model: one per legal action family this turn. Parameters come from the
// menu's JSON Schema (templates) for free-parameter families; for finite families they are the
// ruleset's declared family schema narrowed to the values on the menu now (an enum per scalar field).

import type { Json, JsonObject, Menu } from '@arbiter/engine/kernel';

export type ToolSpec = { name: string; description: string; parameters: JsonObject };

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function familyOf(a: Json): string | null {
  return a !== null && typeof a === 'object' && !Array.isArray(a) && typeof a.type === 'string' ? a.type : null;
}

/** A template schema without its `type` discriminator (the tool name carries it). */
function paramsFromTemplate(schema: JsonObject): JsonObject {
  const props =
    schema.properties && typeof schema.properties === 'object' && !Array.isArray(schema.properties)
      ? schema.properties
      : {};
  const properties: JsonObject = {};
  for (const [k, v] of Object.entries(props)) if (k !== 'type') properties[k] = v;
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => r !== 'type') : [];
  const out: JsonObject = { type: 'object', properties, required };
  if (schema.additionalProperties === false) out.additionalProperties = false;
  return out;
}

function objectOf(v: Json | undefined): JsonObject | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
}

/**
 * Parameters of a finite family: each field's declared schema (when the ruleset declares the
 * family) narrowed to the values on the menu now; a field whose values are lists or objects keeps
 * its declared schema whole.
 */
function paramsFromActions(actions: JsonObject[], declared: JsonObject | undefined): JsonObject {
  const values = new Map<string, Map<string, Json>>();
  const counts = new Map<string, number>();
  for (const a of actions) {
    for (const [k, v] of Object.entries(a)) {
      if (k === 'type') continue;
      if (!values.has(k)) values.set(k, new Map());
      values.get(k)!.set(JSON.stringify(v), v);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  }
  const declaredProps = objectOf(declared?.properties) ?? {};
  const properties: JsonObject = {};
  for (const [k, vs] of values) {
    const list = [...vs.values()];
    const own = objectOf(declaredProps[k]) ?? {};
    properties[k] = list.every((v) => v === null || typeof v !== 'object') ? { ...own, enum: list } : own;
  }
  const declaredRequired = Array.isArray(declared?.required) ? declared.required : null;
  const required = declaredRequired
    ? declaredRequired.filter((r): r is string => typeof r === 'string' && r !== 'type' && values.has(r))
    : [...values.keys()].filter((k) => counts.get(k) === actions.length);
  return { type: 'object', properties, required, additionalProperties: false };
}

/** `declared`: the ruleset's published family schemas by family (`publishedActions`), when it declares them. */
export function toolsForMenu(
  menu: Menu,
  describe?: (a: Json) => string,
  declared?: Readonly<Record<string, JsonObject>>,
): ToolSpec[] {
  const families = new Map<string, JsonObject[]>();
  for (const a of menu.actions) {
    const f = familyOf(a);
    if (f === null || !TOOL_NAME.test(f)) continue;
    if (!families.has(f)) families.set(f, []);
    families.get(f)!.push(a as JsonObject);
  }
  const templates = new Map((menu.templates ?? []).map((t) => [t.family, t]));
  const tools: ToolSpec[] = [];
  for (const [family, actions] of families) {
    const t = templates.get(family);
    let description = t?.description ?? '';
    if (!description && describe) {
      try {
        description = describe(actions[0]);
      } catch {
        description = '';
      }
    }
    tools.push({
      name: family,
      description: description || family.replace(/_/g, ' '),
      parameters: t ? paramsFromTemplate(t.schema) : paramsFromActions(actions, declared?.[family]),
    });
  }
  return tools;
}

/**
 * A model's prose answer with JSON in it: the whole text, or else the first balanced {...}
 * span, parsed once. Returns the action (an object with `type`, or the `action` field of one).
 */
export function actionFromProse(text: string): Json | undefined {
  const candidates: string[] = [text.trim()];
  const start = text.indexOf('{');
  if (start >= 0) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === '\\') i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) {
        candidates.push(text.slice(start, i + 1));
        break;
      }
    }
  }
  for (const c of candidates) {
    let v: unknown;
    try {
      v = JSON.parse(c);
    } catch {
      continue;
    }
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, Json>;
      if (o.action !== null && typeof o.action === 'object' && !Array.isArray(o.action)) return o.action;
      if (typeof o.type === 'string') return o;
    }
  }
  return undefined;
}
