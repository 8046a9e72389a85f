/** Agents draw from their own streams, derived from the match seed and the seat. */
export function agentSeed(seed: number, seat: number): number {
  let h = (seed ^ Math.imul(seat + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  return (h ^ (h >>> 13)) >>> 0;
}
