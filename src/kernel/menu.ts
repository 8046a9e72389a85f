// Helpers rulesets use to check input against their own menu.

import { canonicalJson, isPlainJson, type Json } from './json.ts';
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
 * Find `input` among the enumerated menu actions by canonical JSON. Returns the menu's own
 * element (so the ruleset applies a value it built, not the caller's object).
 */
function findInMenu<A>(actions: readonly A[], input: unknown): A | undefined {
  let key: string;
  try {
    key = canonicalJson(input);
  } catch {
    return undefined;
  }
  for (const a of actions) if (canonicalJson(a) === key) return a;
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
      if (a !== null && typeof a === 'object' && (a as { type?: unknown }).type === declared) return a as Json;
  }
  return menu.actions[0] as Json;
}
