// A fair bot for mines: it reads only the seat's view (rows, figure, AP) and the menu. It
// deduces like a careful player (per-cell and subset rules over the visible digits), digs a
// known-safe cell when it can reach one, and otherwise digs the frontier cell with the lowest
// local mine estimate (a dug mine costs AP but does not end the game).

import type { AgentFactory } from '../../kernel/index.ts';
import type { MinesAction } from './state.ts';
import type { MinesView } from './view.ts';

type XY = [number, number];

type ViewLike = {
  w: number;
  h: number;
  rows: string[];
  pos: XY;
  ap: number;
};

/** The view fields the bot reads; it is asked only once it stands on the board. */
function readView(v: MinesView): ViewLike {
  if (v.pos === null) throw new Error('mines solver: the view has no position');
  return { w: v.w, h: v.h, ap: v.ap, rows: v.rows, pos: [v.pos[0], v.pos[1]] };
}

type Step = { type: string; cell?: XY; action: MinesAction };

const isConcealed = (ch: string) => ch === '#' || ch === '%' || ch === 'F';

/** Known-safe and known-mine concealed cells from the view (indexes y*w+x). */
function deduce(v: ViewLike): { safe: Set<number>; mine: Set<number> } {
  const { w, h, rows } = v;
  const at = (i: number) => rows[(i - (i % w)) / w][i % w];
  const safe = new Set<number>();
  const mine = new Set<number>();
  for (let i = 0; i < w * h; i++) if (at(i) === '%') safe.add(i); // concealed fog is never mined
  const nbrs = (i: number): number[] => {
    const x = i % w;
    const y = (i - x) / w;
    const out: number[] = [];
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx;
        const yy = y + dy;
        if ((dx || dy) && xx >= 0 && yy >= 0 && xx < w && yy < h) out.push(yy * w + xx);
      }
    return out;
  };
  for (let round = 0; round < 20; round++) {
    let changed = false;
    const cons: Array<{ cells: number[]; v: number }> = [];
    for (let i = 0; i < w * h; i++) {
      const ch = at(i);
      if (ch < '0' || ch > '8') continue;
      let val = Number(ch);
      const cells: number[] = [];
      for (const j of nbrs(i)) {
        const c = at(j);
        if (c === '*' || mine.has(j)) val--;
        else if (isConcealed(c) && !safe.has(j)) cells.push(j);
      }
      if (cells.length === 0) continue;
      if (val === 0) for (const j of cells) safe.add(j), (changed = true);
      else if (val === cells.length) for (const j of cells) mine.add(j), (changed = true);
      else cons.push({ cells, v: val });
    }
    // subset rule: A ⊆ B => B \ A holds v(B) - v(A) mines
    for (const a of cons)
      for (const b of cons) {
        if (a === b || a.cells.length >= b.cells.length || !a.cells.every((c) => b.cells.includes(c))) continue;
        const rest = b.cells.filter((c) => !a.cells.includes(c));
        const dv = b.v - a.v;
        if (dv === 0) for (const j of rest) if (!safe.has(j)) safe.add(j), (changed = true);
        if (dv === rest.length) for (const j of rest) if (!mine.has(j)) mine.add(j), (changed = true);
      }
    if (!changed) break;
  }
  return { safe, mine };
}

const solverAgent: AgentFactory<MinesAction, unknown, MinesView> = () => ({
  name: 'solver',
  choose(ctx): MinesAction {
    const v = readView(ctx.view);
    const actions: Step[] = ctx.menu.actions.map((a) => ({
      type: a.type,
      cell: 'cell' in a ? a.cell : undefined,
      action: a,
    }));
    const find = (t: string, c: XY) =>
      actions.find((a) => a.type === t && a.cell && a.cell[0] === c[0] && a.cell[1] === c[1]);
    const { safe, mine } = deduce(v);
    const w = v.w;
    const xy = (i: number): XY => [i % w, (i - (i % w)) / w];
    // 1. a known-safe cell next to the figure
    for (const i of safe) {
      const a = find('dig', xy(i));
      if (a) return a.action;
    }
    // 2. walk to an open cell next to a known-safe cell
    for (const i of safe) {
      const [x, y] = xy(i);
      for (const a of actions) {
        if (a.type !== 'move' || !a.cell) continue;
        if (Math.abs(a.cell[0] - x) <= 1 && Math.abs(a.cell[1] - y) <= 1) return a.action;
      }
    }
    // 3. nothing certain: dig a frontier cell not known to be mined (a guess), or walk to one
    const unknownNear = (c: XY, pred: (i: number) => boolean) => {
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const x = c[0] + dx;
          const y = c[1] + dy;
          if ((dx || dy) && x >= 0 && y >= 0 && x < w && y < v.h && pred(y * w + x)) return true;
        }
      return false;
    };
    const concealedSafeish = (i: number) => isConcealed(v.rows[(i - (i % w)) / w][i % w]) && !mine.has(i);
    const digs = actions.filter((a) => a.type === 'dig' && a.cell && !mine.has(a.cell[1] * w + a.cell[0]));
    if (digs.length > 0) return ctx.random.pick(digs).action;
    const towards = actions.filter((a) => a.type === 'move' && a.cell && unknownNear(a.cell, concealedSafeish));
    if (towards.length > 0) return ctx.random.pick(towards).action;
    // 4. the rest sits behind known mines: dig one open (dug mines are walkable)
    const through = actions.filter((a) => a.type === 'dig' && a.cell && unknownNear(a.cell, concealedSafeish));
    if (through.length > 0) return ctx.random.pick(through).action;
    const toMine = actions.filter(
      (a) =>
        a.type === 'move' && a.cell && unknownNear(a.cell, (i) => mine.has(i) && unknownNear(xy(i), concealedSafeish)),
    );
    if (toMine.length > 0) return ctx.random.pick(toMine).action;
    return (actions.find((a) => a.type === 'stop') ?? actions[0]).action;
  },
});

export const minesAgents: Record<string, AgentFactory<MinesAction, unknown, MinesView>> = { solver: solverAgent };
