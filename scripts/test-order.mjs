// The order scripts/run-tests.mjs starts the test files in, from each file's last known cost.
//
// Longest first, so that a long file does not start last and set the run's wall time alone. But a
// file that mostly waits (browser pages, paced matches, model stand-ins, server restarts) holds one
// of the runner's workers and hardly any core: longest-first alone puts such files side by side
// (they are the long ones), and a fresh clone's run had three of them at once with the two cores
// 0.4 busy for some 15 s (issue 24). So a waiting file is never followed by another while a busy
// one is left: each kind stays longest first, and the two are merged by length otherwise.

/** @typedef {{ wallMs: number; cpuMs: number }} KnownCost */

/** A file waits when under this share of its wall time is CPU (its child processes included). */
const WAITING_SHARE = 0.4;

/**
 * @param {string[]} files paths under the repository
 * @param {Record<string, KnownCost>} known the last cost of each file, by its path with forward slashes
 * @returns {string[]} the same files in the order to start them
 */
export function startOrder(files, known) {
  const cost = (/** @type {string} */ f) => known[f.split('\\').join('/')];
  // a file with no recorded cost may be long: it goes first, and counts as busy
  const wallOf = (/** @type {string} */ f) => cost(f)?.wallMs ?? Number.POSITIVE_INFINITY;
  const waits = (/** @type {string} */ f) => {
    const c = cost(f);
    return c !== undefined && c.cpuMs < WAITING_SHARE * c.wallMs;
  };
  const longestFirst = [...files].sort((a, b) => wallOf(b) - wallOf(a) || (a < b ? -1 : 1));
  const waiting = longestFirst.filter(waits);
  const busy = longestFirst.filter((f) => !waits(f));
  /** @type {string[]} */
  const order = [];
  /** @type {boolean} */
  let lastWaited = false;
  while (waiting.length > 0 || busy.length > 0) {
    /** @type {boolean} */
    const takeBusy = busy.length > 0 && (waiting.length === 0 || lastWaited || wallOf(busy[0]) > wallOf(waiting[0]));
    const next = /** @type {string} */ (takeBusy ? busy.shift() : waiting.shift());
    lastWaited = !takeBusy;
    order.push(next);
  }
  return order;
}
