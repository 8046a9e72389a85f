// The page's module: takes the engine by its package name (bundled from packages/engine/dist by
// build.mjs), plays one seeded game of every ruleset and lists them. `?seed=N` picks the seed.
// `globalThis.engineGames` holds the summaries once they are in, for the browser test to read.

import * as engine from '@arbiter/engine';
import { playEvery } from './games.mjs';

const seed = Number(new URLSearchParams(location.search).get('seed') ?? '1');
const status = /** @type {HTMLElement} */ (document.getElementById('status'));
const rows = /** @type {HTMLElement} */ (document.getElementById('games'));

playEvery(engine, Number.isSafeInteger(seed) ? seed : 1).then(
  (games) => {
    for (const g of games) {
      const tr = document.createElement('tr');
      for (const text of [g.id, g.version, String(g.submissions), g.outcome ?? '(none)', g.hash]) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.append(td);
      }
      rows.append(tr);
    }
    status.textContent = `${games.length} games played with seed ${seed}.`;
    Object.assign(globalThis, { engineGames: games });
  },
  (e) => {
    status.textContent = `failed: ${e instanceof Error ? e.message : String(e)}`;
    Object.assign(globalThis, { engineError: String(e) });
  },
);
