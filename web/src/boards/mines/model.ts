// The mines board's reading of the seat's view, with no DOM: cell states, what a click would do,
// the diggable ring, labels, and refusals and voided intents in words. The board component draws
// what these return; the browser tests and a node test read the same functions.

import type { Cell, Intent } from '@arbiter/engine/rulesets/mines';
import { intentWords, refusalSentence } from '@arbiter/engine/rulesets/mines';
import { isOpenGlyph, viewMovePath } from '@arbiter/engine/rulesets/mines';
import type { MinesView } from '@arbiter/engine/rulesets/mines';
import type { Json } from '../types.ts';
import { arr, num, obj, str, type JsonObj } from '../util.ts';

export type { Cell, Intent, MinesView };

/**
 * The seven looks of a cell. The seed's four states are floor (open zero), fog (open fog, no
 * number), closed and closed-fog; digit, flag and mine (a dug mine, walkable) complete the set.
 */
export type CellKind = 'floor' | 'digit' | 'fog' | 'mine' | 'closed' | 'closed-fog' | 'flag';

const OUTCOMES = new Set(['executed', 'voided', 'rejected']);

/** The view as a MinesView, or null when it is not one (a board never draws what it cannot read). */
export function readView(v: Json): MinesView | null {
  const o = obj(v);
  if (o === null) return null;
  const w = num(o.w, -1);
  const h = num(o.h, -1);
  const rows = arr(o.rows).filter((r): r is string => typeof r === 'string');
  if (w < 0 || h < 0 || rows.length !== h || rows.some((r) => r.length !== w)) return null;
  const p = arr(o.pos);
  const pos: Cell | null = p.length === 2 ? [num(p[0]), num(p[1])] : null;
  const prices: { [k: string]: number } = {};
  for (const [k, val] of Object.entries(obj(o.prices) ?? {})) prices[k] = num(val);
  const last = arr(o.last)
    .map(obj)
    .filter((r): r is JsonObj => r !== null && OUTCOMES.has(str(r.outcome)))
    .map((r) => ({
      accepted: r.accepted === true,
      outcome: str(r.outcome) as 'executed' | 'voided' | 'rejected',
      reject_reason: (typeof r.reject_reason === 'string'
        ? r.reject_reason
        : null) as MinesView['last'][0]['reject_reason'],
      sub_reason: (typeof r.sub_reason === 'string' ? r.sub_reason : null) as MinesView['last'][0]['sub_reason'],
    }));
  const ended = o.ended === 'cleared' || o.ended === 'round_cap' ? o.ended : null;
  return {
    board: str(o.board),
    w,
    h,
    rows,
    pos,
    remaining_safe: num(o.remaining_safe),
    phase: str(o.phase),
    ap: num(o.ap),
    rap: num(o.rap),
    round: num(o.round),
    max_rounds: num(o.max_rounds),
    boards_cleared: num(o.boards_cleared),
    boards_target: num(o.boards_target),
    prices,
    last,
    diagnostics: arr(o.diagnostics)
      .map(obj)
      .filter((d): d is JsonObj => d !== null)
      .map((d) => ({
        level: str(d.level) === 'error' ? 'error' : 'debug',
        category: str(d.category),
        message: str(d.message),
      })),
    ended,
  };
}

export function glyphAt(v: MinesView, x: number, y: number): string {
  return v.rows[y]?.[x] ?? '#';
}

export function cellKind(g: string): CellKind {
  if (g === '0') return 'floor';
  if (g >= '1' && g <= '8') return 'digit';
  if (g === '~') return 'fog';
  if (g === '*') return 'mine';
  if (g === '%') return 'closed-fog';
  if (g === 'F') return 'flag';
  return 'closed';
}

function isOpen(v: MinesView, x: number, y: number): boolean {
  return isOpenGlyph(glyphAt(v, x, y));
}

/** The 8 cells around the figure (the only ones dig and flag reach). */
function isAdjacentToFigure(v: MinesView, x: number, y: number): boolean {
  if (v.pos === null) return false;
  const dx = Math.abs(v.pos[0] - x);
  const dy = Math.abs(v.pos[1] - y);
  return dx <= 1 && dy <= 1 && dx + dy > 0;
}

/** The diggable ring: closed cells (flagged or not) next to the figure. */
export function inRing(v: MinesView, x: number, y: number): boolean {
  return !isOpen(v, x, y) && isAdjacentToFigure(v, x, y);
}

/** Left click (Enter): move on an open cell, dig on a closed one. No chord: a digit only moves. */
export function primaryIntent(v: MinesView, x: number, y: number): Intent {
  return isOpen(v, x, y) ? { type: 'move', cell: [x, y] } : { type: 'dig', cell: [x, y] };
}

/** Right click (F): pull the flag on a flagged cell, else place one. */
export function secondaryIntent(v: MinesView, x: number, y: number): Intent {
  return glyphAt(v, x, y) === 'F' ? { type: 'flag_pull', cell: [x, y] } : { type: 'flag_place', cell: [x, y] };
}

const at = (c: Cell): string => `(${c[0]},${c[1]})`;

/** What the pointer or the focus on a cell would do: the pre-committed intent, in words, with its path. */
export type Preview = {
  intent: Intent;
  /** move | dig | flag | pull, or 'blocked' when the rules will refuse it (it is still sent if clicked). */
  look: 'move' | 'dig' | 'pull-first' | 'blocked';
  words: string;
  path: Cell[];
};

export function preview(v: MinesView, x: number, y: number): Preview {
  const intent = primaryIntent(v, x, y);
  const g = glyphAt(v, x, y);
  const ap = v.prices.dig_ap_cost ?? 1;
  if (intent.type === 'move') {
    const path = viewMovePath(v, [x, y]);
    if (path.length === 0) return { intent, look: 'blocked', words: `no open path to ${at([x, y])}`, path };
    const steps = path.length - 1;
    const what = g === '*' ? ' (a dug mine: walkable)' : '';
    return {
      intent,
      look: 'move',
      words:
        steps === 0
          ? 'you are here'
          : `click moves you to ${at([x, y])}${what}, ${steps} step${steps === 1 ? '' : 's'}, free`,
      path,
    };
  }
  const near = isAdjacentToFigure(v, x, y);
  const flagWord = g === 'F' ? 'right click pulls the flag' : 'right click flags it';
  if (!near)
    return { intent, look: 'blocked', words: `${at([x, y])} is out of reach: move next to it first`, path: [] };
  if (g === 'F') return { intent, look: 'pull-first', words: `flagged: ${flagWord} (1 AP) before digging`, path: [] };
  return { intent, look: 'dig', words: `click digs ${at([x, y])} for ${ap} AP; ${flagWord}`, path: [] };
}

/** A cell's accessible name: position, state, and what Enter and F would do there. */
export function cellLabel(v: MinesView, x: number, y: number): string {
  const g = glyphAt(v, x, y);
  const k = cellKind(g);
  const here = v.pos !== null && v.pos[0] === x && v.pos[1] === y;
  const state: Record<CellKind, string> = {
    floor: 'open, nothing around',
    digit: `open, ${g} around`,
    fog: 'open fog, number hidden',
    mine: 'dug mine, walkable',
    closed: 'closed',
    'closed-fog': 'closed fog',
    flag: 'closed, flagged',
  };
  const parts = [`${at([x, y])} ${state[k]}`];
  if (here) parts.push('your figure is here');
  else if (isOpenGlyph(g)) parts.push('Enter moves here');
  else if (isAdjacentToFigure(v, x, y))
    parts.push(g === 'F' ? 'in reach, F pulls the flag' : 'in reach, Enter digs, F flags');
  else parts.push('out of reach');
  return parts.join(', ');
}

/** A refusal of one intent in words, from the answer's reason codes (detail or the reason text). */
export function refusalWords(
  intent: Intent,
  code: string,
  reason: string,
  detail: JsonObj | null,
  prices: { [k: string]: number },
): string {
  const out = arr(detail?.outcomes).map(obj)[0] ?? detail;
  let rr = typeof out?.reject_reason === 'string' ? out.reject_reason : null;
  let sr = typeof out?.sub_reason === 'string' ? out.sub_reason : null;
  if (rr === null) {
    const m = /\b(board_face|resource_face|phase|board_invalid)(?:\/([a-z_]+))?/.exec(reason);
    if (m) {
      rr = m[1];
      sr = m[2] ?? null;
    }
  }
  if (rr !== null) {
    const sentence = refusalSentence(
      intent.type,
      { outcome: 'rejected', reject_reason: rr as never, sub_reason: sr as never },
      prices,
    );
    return `${intentWords(intent)} refused: ${sentence}`;
  }
  if (code === 'game_over') return `${intentWords(intent)} refused: the run is over`;
  if (code === 'out_of_turn') return `${intentWords(intent)} refused: it is not your turn`;
  return `${intentWords(intent)} refused: ${reason || code}`;
}

/** One line per intent of the last settled batch that did not execute (voided or refused). */
export function lastBatchLines(v: MinesView, intents: readonly Intent[] | null): string[] {
  const lines: string[] = [];
  v.last.forEach((r, i) => {
    if (r.outcome === 'executed') return;
    const it = intents !== null && intents.length === v.last.length ? intents[i] : undefined;
    const who = it ? intentWords(it) : v.last.length > 1 ? `intent ${i + 1} of ${v.last.length}` : 'the intent';
    const tag = r.outcome === 'voided' ? 'voided' : 'refused';
    lines.push(`${who} ${tag}: ${refusalSentence(it?.type ?? '', r, v.prices)}`);
  });
  return lines;
}

/** A round end in words (the event and the view after it). */
export function roundEndWords(e: JsonObj, v: MinesView | null): string {
  const tag = str(e.path_tag);
  if (tag === 'cleared') return `Board cleared! ${v?.ended === 'cleared' ? 'The run is won.' : 'A new board is laid.'}`;
  if (tag === 'stopped') return 'Round stopped: the unused AP went to the bank.';
  if (tag === 'ap_exhausted') return 'Round over: out of action points.';
  return 'Round over.';
}
