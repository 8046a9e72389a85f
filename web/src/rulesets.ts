// The shipped rulesets, loaded into the page on demand (each its own chunk): the replay viewer runs
// them, and the match page borrows their words for events. Rulesets import nothing from node. The
// list is not written here: every ruleset folder's index.ts is a chunk, found by vite at build time,
// and a package is known by the id its ruleset declares (packages/engine/src/registry.ts names the shipped ones).
import type { RulesetPackage } from '@arbiter/engine/kernel';

const MODULES = import.meta.glob<Record<string, unknown>>('../../packages/engine/src/rulesets/*/index.ts');

/** The folder a ruleset lives in is its id (`arbiter new` writes it so). */
const LOADERS: Record<string, () => Promise<RulesetPackage>> = Object.fromEntries(
  Object.entries(MODULES).map(([path, load]) => [
    /\/rulesets\/([^/]+)\/index\.ts$/.exec(path)?.[1] ?? path,
    () => load().then((m) => packageIn(m)),
  ]),
);

/** The module's package export (`<name>Package`), checked by shape. */
function packageIn(mod: Record<string, unknown>): RulesetPackage {
  for (const v of Object.values(mod)) {
    const p = v as Partial<RulesetPackage> | null;
    if (
      p &&
      typeof p === 'object' &&
      p.ruleset &&
      typeof p.ruleset.id === 'string' &&
      typeof p.rulesPage === 'function'
    )
      return p as RulesetPackage;
  }
  throw new Error('no ruleset package exported');
}

const loaded = new Map<string, Promise<RulesetPackage | null>>();

/** The package of a shipped ruleset, or null for one this page was not built with. */
export function loadPackage(id: string): Promise<RulesetPackage | null> {
  let p = loaded.get(id);
  if (!p) {
    const load = LOADERS[id];
    p = load
      ? load()
          .then((pkg) => (pkg.ruleset.id === id ? pkg : null))
          .catch(() => null)
      : Promise.resolve(null);
    loaded.set(id, p);
  }
  return p;
}
