// Readable one-liners for `arbiter play`.

import type { GameEvent } from '../../kernel/index.ts';
import { ZONE_NAMES } from './constants.ts';
import type { Action } from './schema.ts';

const zone = (z: unknown) => (typeof z === 'number' && ZONE_NAMES[z]) || `zone ${String(z)}`;
const who = (s: unknown) => `#${String(s)}`;

export function describeEvent(e: GameEvent): string {
  switch (e.type) {
    case 'submitted':
      return `(sealed for turn ${e.turn})`;
    case 'clock':
      return `— turn ${e.turn} complete —`;
    case 'waited':
      return `${who(e.seat)} waits in ${zone(e.zone)}`;
    case 'moved':
      return `${who(e.seat)} moves ${zone(e.from)} → ${zone(e.to)}`;
    case 'picked_up':
      return `${who(e.seat)} picks up ${e.item} in ${zone(e.zone)}`;
    case 'shortcut_discovered':
      return `${who(e.seat)} discovers shortcut ${e.shortcut} (${e.how})`;
    case 'warden_hit':
      return `${who(e.seat)} hits the Warden for ${e.damage} (Warden ${e.health})`;
    case 'warden_fallen':
      return `the Stage Warden falls`;
    case 'warden_strike':
      return e.hit
        ? `the Warden strikes ${who(e.target)} for ${e.damage} (health ${e.health})`
        : `the Warden swings at ${who(e.target)} and misses`;
    case 'said':
      return `${who(e.seat)} says: "${e.text}"`;
    case 'whispered':
      return `${who(e.seat)} whispers to ${who(e.to)}: "${e.text}"`;
    case 'fizzled':
      return `${who(e.seat)}'s ${e.action} fizzles: ${e.reason}`;
    case 'match_over':
      return `the match ends (${e.reason}) after turn ${e.turn}`;
    case 'beat':
      return `${String(e.beat).toUpperCase()} ${beatDetail(e)}`;
    default: {
      const { type, ...rest } = e;
      return `${type} ${JSON.stringify(rest)}`;
    }
  }
}

function beatDetail(e: GameEvent): string {
  const { type: _t, beat: _b, turn, ...rest } = e;
  return `(turn ${turn}) ${JSON.stringify(rest)}`;
}

export function describeAction(a: Action, seat: number): string {
  switch (a.type) {
    case 'move':
      return `${who(seat)} → ${zone(a.to)}`;
    case 'say':
      return `${who(seat)} says "${a.text}"`;
    case 'whisper':
      return `${who(seat)} whispers to ${who(a.to)}`;
    default: {
      const { type, ...rest } = a;
      return `${who(seat)} ${type}${Object.keys(rest).length ? ' ' + JSON.stringify(rest) : ''}`;
    }
  }
}
