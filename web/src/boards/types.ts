// web/src/boards/types.ts — what every board component receives. Boards draw only what `view` holds.
import type { ComponentType } from 'preact';
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type ActResult = { ok: true; events: Json[] } | { ok: false; code: string; reason: string };
export type BoardProps = {
  ruleset: string;
  seat: number | null;
  view: Json;
  menu: Json[] | null;
  pending: Json[];
  events: Json[];
  outcome: Json | null;
  readOnly: boolean;
  act: (action: Json) => Promise<ActResult>;
};
export type Board = ComponentType<BoardProps>;
