// The one data table of the action economy (A3 owns every number; A2 never sees one).
// Defaults: every price is 1 AP (the seed's price table: place 1, pull 1, move-a-flag 2 = pull +
// place). AP per round is 8, derived from the acceptance criteria: AC-10c reaches ap=1 after 7
// digs in a fresh round and AC-10f opens a fresh round with ap=8. The refresh cost is paid from
// the remaining-AP bank (RAP), 1 by default (U-M3).

export type EconomyTable = {
  ap_per_round: number;
  dig_ap_cost: number;
  flag_place_ap_cost: number;
  flag_pull_ap_cost: number;
  rap_refresh_cost: number;
};

const ECONOMY_DEFAULTS: Readonly<EconomyTable> = Object.freeze({
  ap_per_round: 8,
  dig_ap_cost: 1,
  flag_place_ap_cost: 1,
  flag_pull_ap_cost: 1,
  rap_refresh_cost: 1,
});

const ECONOMY_KEYS = Object.keys(ECONOMY_DEFAULTS) as (keyof EconomyTable)[];

/** Defaults with overrides applied; every value must be a whole number in range. */
export function economyTable(overrides: unknown): EconomyTable {
  const t: EconomyTable = { ...ECONOMY_DEFAULTS };
  if (overrides === undefined || overrides === null) return t;
  if (typeof overrides !== 'object' || Array.isArray(overrides)) throw new Error('economy must be an object');
  for (const [k, v] of Object.entries(overrides as Record<string, unknown>)) {
    if (!(ECONOMY_KEYS as string[]).includes(k))
      throw new Error(`unknown economy field "${k}" (known: ${ECONOMY_KEYS.join(', ')})`);
    const min = k === 'ap_per_round' ? 1 : 0;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > 1000) {
      throw new Error(`economy.${k} must be an integer from ${min} to 1000`);
    }
    t[k as keyof EconomyTable] = v;
  }
  return t;
}
