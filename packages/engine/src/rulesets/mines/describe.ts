// Events, actions, refusals and the board in words, for the readable log and the terminal
// player. Presentation follows the seed's D1 duties: an opened fog cell shows no number (the
// event still carries the true digit), digits outrank the figure (its cell is marked around the
// glyph, never over it), and every refusal reads as a plain sentence, mapped from reject_reason
// and sub_reason.

import type { GameEvent, Json } from '../../kernel/index.ts';
import type { ActionOutcome, Diagnostic, Intent } from './board/types.ts';
import type { MinesAction } from './state.ts';
import type { MinesView } from './view.ts';

const at = (c: Json): string => (Array.isArray(c) ? `(${c.join(',')})` : String(c));

export function describeEvent(e: GameEvent): string {
  if (e.type === 'cell_revealed') {
    const fog = Array.isArray(e.variant_ids) && e.variant_ids.includes('fog');
    const how = e.channel === 'initial' ? 'opened at the start' : e.channel === 'chain' ? 'opened by the chain' : 'dug';
    const what =
      e.kind === 'mine'
        ? 'a MINE (walkable from now on)'
        : fog
          ? 'a fog cell (its number stays hidden)'
          : e.digit === 0
            ? 'empty'
            : `${e.digit}`;
    return `${at(e.cell)} ${how}: ${what}`;
  }
  if (e.type === 'flag_judged')
    return `flag at ${at(e.cell)} judged: ${e.hit ? 'on a mine (hit)' : 'on a safe cell (miss)'}`;
  if (e.type === 'round_end') {
    const why =
      e.path_tag === 'cleared'
        ? 'board cleared'
        : e.path_tag === 'stopped'
          ? 'you stopped (unused AP banked)'
          : 'out of action points';
    return `round ends: ${why}${e.continuation_hint === 'new_board' ? ', next round on a new board' : ''}`;
  }
  return e.type;
}

/** One intent (or action) in words; the web board's cursor line uses the same words. */
export function intentWords(i: Intent | MinesAction): string {
  switch (i.type) {
    case 'dig':
      return `dig ${at(i.cell)}`;
    case 'flag_place':
      return `flag ${at(i.cell)}`;
    case 'flag_pull':
      return `pull the flag at ${at(i.cell)}`;
    case 'move':
      return `move to ${at(i.cell)}`;
    case 'stop':
      return 'stop the round';
    case 'refresh':
      return 'refresh the board';
    case 'batch':
      return `batch: ${i.intents.map(intentWords).join(', ')}`;
  }
}

export function describeAction(a: MinesAction): string {
  return intentWords(a);
}

/** One plain sentence for a refused or voided intent (the seed's D1 duty: every refusal perceptible). */
export function refusalSentence(
  type: string,
  r: Pick<ActionOutcome, 'outcome' | 'reject_reason' | 'sub_reason'>,
  prices?: { [k: string]: number },
): string {
  if (r.outcome === 'voided') return 'not carried out: the round had already ended earlier in the same batch';
  switch (r.reject_reason) {
    case 'phase':
      return 'no round is running now, so nothing can be done until the next round starts';
    case 'resource_face': {
      const cost = prices?.[`${type}_ap_cost`];
      if (type === 'refresh') return 'not enough banked AP to pay for a new board';
      return `not enough action points left this round${cost !== undefined ? ` (it costs ${cost})` : ''}`;
    }
    case 'board_invalid':
      return 'the new board breaks an install rule and was refused';
    case 'board_face':
      break;
    default:
      return 'refused';
  }
  switch (r.sub_reason) {
    case 'not_adjacent':
      return 'that cell is not next to you: dig and flag only reach the 8 cells around the figure';
    case 'target_revealed':
      return 'that cell is already open';
    case 'target_concealed':
      return 'you can only move onto open cells';
    case 'flag_present':
      if (type === 'dig') return 'there is a flag on that cell: pull the flag first, then dig';
      return type === 'flag_place' ? 'that cell already has a flag' : 'there is a flag on that cell';
    case 'flag_absent':
      return 'there is no flag on that cell to pull';
    case 'no_path':
      return 'that open cell cannot be reached through open cells';
    case 'out_of_catalog':
      return 'that is not a cell of this board';
    default:
      return 'refused by the board rules';
  }
}

/** Lines for a settled batch: one per intent that did not execute (empty when all executed). */
export function outcomeLines(
  intents: readonly { type: string }[],
  outcomes: readonly ActionOutcome[],
  prices?: { [k: string]: number },
): string[] {
  const out: string[] = [];
  outcomes.forEach((r, i) => {
    if (r.outcome === 'executed') return;
    const it = intents[i] as Intent | undefined;
    const what = it ? intentWords(it) : 'intent';
    out.push(`${what} — ${refusalSentence(it?.type ?? '', r, prices)}`);
  });
  return out;
}

export function diagnosticLines(ds: readonly Diagnostic[]): string[] {
  return ds.map((d) => `[${d.level}] ${d.category}: ${d.message}`);
}

/**
 * The board as text: one glyph per cell, the figure's cell wrapped in brackets so its digit
 * stays visible. Glyphs: '#' concealed, '%' concealed fog, 'F' flag, '.' open empty, '1'-'8'
 * open digit, '~' open fog (no number), '*' dug mine.
 */
function boardLines(v: MinesView): string[] {
  const lines: string[] = [];
  const head = `round ${v.round}/${v.max_rounds} · AP ${v.ap} · banked ${v.rap} · safe cells left ${v.remaining_safe} · boards ${v.boards_cleared}/${v.boards_target}`;
  lines.push(head);
  for (let y = 0; y < v.h; y++) {
    let r = '';
    for (let x = 0; x < v.w; x++) {
      const ch = v.rows[y][x] === '0' ? '.' : v.rows[y][x];
      const fig = v.pos !== null && v.pos[0] === x && v.pos[1] === y;
      r += fig ? `[${ch}]` : ` ${ch} `;
    }
    lines.push(r.replace(/\s+$/, ''));
  }
  return lines;
}

function isView(v: Json): v is MinesView {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Array.isArray(v.rows) && typeof v.w === 'number';
}

/**
 * The readable log's picture: A2's diagnostics and the refusals inside a batch after every
 * submission; the board after setup, after a submission that ended a round, and at the end.
 */
export function describeView(view: Json, moment: 'setup' | 'step' | 'end', events: readonly GameEvent[]): string[] {
  if (!isView(view)) return [];
  const out = diagnosticLines(view.diagnostics);
  if (moment === 'step') {
    if (view.last.length > 1) {
      view.last.forEach((r, i) => {
        if (r.outcome !== 'executed')
          out.push(`intent ${i + 1} of ${view.last.length}: ${refusalSentence('', r, view.prices)}`);
      });
    }
    if (!events.some((e) => e.type === 'round_end') || view.ended !== null) return out;
  }
  return [...out, ...boardLines(view)];
}

/** The view in plain words for agents (issue 12): the board, the legend, the figures and the prices. */
export function viewText(view: Json, _seat: number | null): string {
  if (!isView(view)) return JSON.stringify(view);
  const lines = [
    `Board ${view.board}, ${view.w}×${view.h}; cells are (x,y) from (0,0) at the top left. Phase ${view.phase}.`,
    ...boardLines(view),
    "Legend: # concealed, % concealed fog, F your flag, . or 1-8 an open safe cell and its digit, ~ an open fog cell (its number stays hidden), * a dug mine; [ ] marks the figure's cell.",
    `Action point prices: ${Object.entries(view.prices)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
  ];
  if (view.ended !== null)
    lines.push(`The run is over: ${view.ended === 'cleared' ? 'boards cleared' : 'round cap reached'}.`);
  lines.push(...diagnosticLines(view.diagnostics));
  return lines.join('\n');
}

/**
 * What the seat perceives of an event, for agents: no digit of a fog cell (its board shows `~`),
 * and no flag judgments — a judged flag stays on a concealed cell, so "hit" would name a mine the
 * board still hides (the kernel's `secrets`); the seat's flags are on its board as `F`.
 */
export function eventView(e: GameEvent, _seat: number): GameEvent | null {
  if (e.type === 'flag_judged') return null;
  if (e.type === 'cell_revealed' && Array.isArray(e.variant_ids) && e.variant_ids.includes('fog')) {
    const { digit: _digit, ...rest } = e;
    return { ...rest, type: 'cell_revealed' };
  }
  return e;
}
