// The shipped rulesets, loaded into the page on demand (each its own chunk): the replay viewer runs
// them, and the match page borrows their words for events. Rulesets import nothing from node.
import type { RulesetPackage } from '../../src/kernel/index.ts';

const LOADERS: Record<string, () => Promise<RulesetPackage>> = {
  tictactoe: () => import('../../src/rulesets/tictactoe/index.ts').then((m) => m.tictactoePackage),
  mines: () => import('../../src/rulesets/mines/index.ts').then((m) => m.minesPackage),
  ground: () => import('../../src/rulesets/ground/index.ts').then((m) => m.groundPackage),
  bnc: () => import('../../src/rulesets/bnc/index.ts').then((m) => m.bncPackage),
  duel: () => import('../../src/rulesets/duel/index.ts').then((m) => m.duelPackage),
};

const loaded = new Map<string, Promise<RulesetPackage | null>>();

/** The package of a shipped ruleset, or null for one this page was not built with. */
export function loadPackage(id: string): Promise<RulesetPackage | null> {
  let p = loaded.get(id);
  if (!p) {
    const load = LOADERS[id];
    p = load ? load().catch(() => null) : Promise.resolve(null);
    loaded.set(id, p);
  }
  return p;
}
