// Agents draw from streams of their own, derived from the match seed, the seat and the number of
// the decision (the seat's log entries so far). A decision's stream depends on nothing else: not on
// the order seats were asked in, not on what an agent drew before, not on a server restart, so every
// door (play, sim, serve) gives a seat the same numbers for the same decision.

/** The seat's base seed: the match seed and the seat, mixed. */
function agentSeed(seed: number, seat: number): number {
  let h = (seed ^ Math.imul(seat + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  return (h ^ (h >>> 13)) >>> 0;
}

/** The seed of the seat's decision number `n` (0 for its first). */
export function decisionSeed(seed: number, seat: number, n: number): number {
  let h = (agentSeed(seed, seat) ^ Math.imul(n + 1, 0xc2b2ae35)) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39) >>> 0;
  return (h ^ (h >>> 15)) >>> 0;
}
