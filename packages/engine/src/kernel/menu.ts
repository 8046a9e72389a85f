// Helpers rulesets use to check input against their own menu.

import { isPlainJson, jsonEqual, type Json } from './json.ts';
import { reject } from './errors.ts';
import type { Menu, Validation } from './contract.ts';

/** Input must be a plain JSON object; anything else is a bad_request. */
export function requireObject(input: unknown): Validation<Record<string, Json>> {
  if (input === null || typeof input !== 'object' || Array.isArray(input) || !isPlainJson(input)) {
    return { ok: false, error: reject('bad_request', 'an action must be a JSON object') };
  }
  return { ok: true, action: input as Record<string, Json> };
}

/**
 * Find `input` among the enumerated menu actions by JSON equality (key order ignored). Returns the menu's own
 * element (so the ruleset applies a value it built, not the caller's object).
 */
function findInMenu<A>(actions: readonly A[], input: unknown): A | undefined {
  // a structural comparison with early exits: building canonical strings for every menu element
  // made the checked path of menu-validated rulesets twice as slow (ground, duel)
  for (const a of actions) if (jsonEqual(a, input)) return a;
  return undefined;
}

/** The kernel's default validation (rulesets without `validate`): shape check, then menu membership. */
export function validateByMenu<A>(actions: readonly A[], input: unknown): Validation<A> {
  const obj = requireObject(input);
  if (!obj.ok) return obj;
  const found = findInMenu(actions, input);
  if (found === undefined) {
    return { ok: false, error: reject('illegal', 'that action is not on the menu now', { input: obj.action }) };
  }
  return { ok: true, action: found };
}

/** The menu element of the ruleset's declared default family, else the first menu element. */
export function defaultActionOf(menu: Menu, declared: string | null | undefined): Json {
  if (declared) {
    for (const a of menu.actions)
      if (a !== null && typeof a === 'object' && (a as { type?: unknown }).type === declared) return a;
  }
  return menu.actions[0];
}
