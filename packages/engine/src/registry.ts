// The one file that names the shipped ruleset packages. The kernel imports no ruleset; runners
// receive a package (or its ruleset) from their caller; interfaces look packages up here.

import { ArbiterError, type Ruleset, type RulesetPackage } from './kernel/index.ts';
import { tictactoePackage } from './rulesets/tictactoe/index.ts';
import { minesPackage } from './rulesets/mines/index.ts';
import { groundPackage } from './rulesets/ground/index.ts';
import { bncPackage } from './rulesets/bnc/index.ts';
import { duelPackage } from './rulesets/duel/index.ts';

export const PACKAGES: readonly RulesetPackage[] = [
  tictactoePackage,
  minesPackage,
  groundPackage,
  bncPackage,
  duelPackage,
];

export const REGISTRY: ReadonlyMap<string, RulesetPackage> = new Map(PACKAGES.map((p) => [p.ruleset.id, p]));

export function rulesetIds(): string[] {
  return [...REGISTRY.keys()];
}

export function getPackage(id: string): RulesetPackage {
  const p = REGISTRY.get(id);
  if (!p) throw new ArbiterError('not_found', `unknown ruleset "${id}" (known: ${rulesetIds().join(', ')})`);
  return p;
}

/**
 * The ruleset `id` at `version`: the current one, or an earlier version its package still replays;
 * the current one when neither matches (its version then differs, which the caller reports).
 */
export function rulesetAt(id: string, version: string): Ruleset | undefined {
  const p = REGISTRY.get(id);
  if (!p) return undefined;
  return p.ruleset.version === version ? p.ruleset : (p.earlier?.find((r) => r.version === version) ?? p.ruleset);
}

/** A set of packages looked up by ruleset id. */
export interface Registry {
  readonly packages: readonly RulesetPackage[];
  get(id: string): RulesetPackage;
  ids(): string[];
}

/**
 * The shipped packages plus `extra` (a test fixture, a ruleset `arbiter new` just wrote), so adding
 * a ruleset for a test never edits the list above. An id that is already taken is refused.
 */
export function withPackages(extra: readonly RulesetPackage[]): Registry {
  const packages = [...PACKAGES];
  const byId = new Map(REGISTRY);
  for (const p of extra) {
    const id = p.ruleset.id;
    if (byId.has(id)) throw new ArbiterError('bad_config', `a ruleset with id "${id}" is already registered`);
    byId.set(id, p);
    packages.push(p);
  }
  return {
    packages,
    ids: () => [...byId.keys()],
    get(id) {
      const p = byId.get(id);
      if (!p) throw new ArbiterError('not_found', `unknown ruleset "${id}" (known: ${[...byId.keys()].join(', ')})`);
      return p;
    },
  };
}
