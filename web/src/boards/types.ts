// web/src/boards/types.ts — what every board component receives. Boards draw only what `view` holds.
import type { ComponentType } from 'preact';
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type ActResult = { ok: true; events: Json[] } | { ok: false; code: string; reason: string };
/** `V` is the view's type: a ruleset's own board names its ruleset's exported view type. */
export type BoardProps<V = Json> = {
  ruleset: string; // ruleset id
  seat: number | null; // the seat whose view this is; null = spectator
  view: V; // the view exactly as the server (or the viewer's replay) gives it
  menu: Json[] | null; // this seat's legal actions while it owes a decision, else null
  pending: Json[]; // who owes a decision: [{seat, kind}]
  events: Json[]; // events of the latest change (for animation and the event list)
  history?: Json[]; // every event this audience saw up to this moment, when the page has them (the viewer does)
  outcome: Json | null;
  readOnly: boolean; // true in the replay viewer and for spectators
  act: (action: Json) => Promise<ActResult>; // submits through the match's WebSocket ('act' frame)
};
export type Board = ComponentType<BoardProps>;

/**
 * A ruleset's own board, registered for that ruleset's matches: the page hands it the views of that
 * ruleset only (as JSON off the wire), so it may read them as the ruleset's view type. Each board
 * still checks the shape it draws and says so when it cannot read a view (one from another version).
 */
export function ownBoard<V>(board: ComponentType<BoardProps<V>>): Board {
  return board as unknown as Board;
}
