// The terminal player (`arbiter play mines --interactive`), on the kernel's TerminalIO: keys in,
// text out, no Node modules. Cursor keys (or hjkl) move the cursor; d/space digs, f places or
// pulls a flag, m/enter moves the figure, s stops the round, r pays a refresh, q quits. A dig or
// flag out of reach goes as one batch [move next to it, intent], settled in arrival order.
// Presentation follows the seed's D1 duties: no number on an opened fog cell (board and event
// list alike), the figure's cell marked by brackets around its glyph (digits outrank the
// figure), and every refusal or voided intent said in a plain sentence.

import { act, type GameEvent, type TerminalIO, type TerminalPlayer } from '../../kernel/index.ts';
import type { Cell, Intent } from './board/types.ts';
import { describeAction, describeEvent, diagnosticLines, outcomeLines, refusalSentence } from './describe.ts';
import { mines } from './ruleset.ts';
import type { MinesAction, MinesState } from './state.ts';
import { minesView, type MinesView } from './view.ts';

const ESC = '\x1b[';
const GLYPH_COLOUR: Record<string, string> = {
  '#': '90',
  '%': '36',
  F: '31;1',
  '~': '36',
  '*': '35;1',
  '.': '37',
  '1': '34;1',
  '2': '32;1',
  '3': '31',
  '4': '35',
  '5': '33',
  '6': '36',
  '7': '37;1',
  '8': '90;1',
};

type Ui = {
  state: MinesState;
  cursor: Cell;
  log: string[];
  /** What the last key did, in words (refusals included). */
  message: string[];
};

export function newUi(state: MinesState): Ui {
  const pos = minesView(state).pos ?? [0, 0];
  return {
    state,
    cursor: [pos[0], pos[1]],
    log: [],
    message: ['dig next to the figure [ ]; digits count the mines around a cell'],
  };
}

export function renderScreen(ui: Ui, colour = true): string {
  const v = minesView(ui.state);
  const paint = (codes: string[], text: string) =>
    colour && codes.length ? `${ESC}${codes.join(';')}m${text}${ESC}0m` : text;
  const out: string[] = [];
  out.push(
    `mines  round ${v.round}/${v.max_rounds}  AP ${v.ap}  banked AP ${v.rap}  safe cells left ${v.remaining_safe}  boards ${v.boards_cleared}/${v.boards_target}`,
  );
  out.push('');
  for (let y = 0; y < v.h; y++) {
    let line = '';
    for (let x = 0; x < v.w; x++) {
      const ch = v.rows[y][x] === '0' ? '.' : v.rows[y][x];
      const fig = v.pos !== null && v.pos[0] === x && v.pos[1] === y;
      const cur = ui.cursor[0] === x && ui.cursor[1] === y;
      const glyph = paint([GLYPH_COLOUR[ch] ?? '37', ...(cur ? ['4', '43'] : [])], ch);
      line += fig ? paint(['1'], '[') + glyph + paint(['1'], ']') : ` ${glyph} `;
    }
    out.push(line);
  }
  out.push('');
  out.push('arrows/hjkl cursor · d/space dig · f flag/pull · m/enter move · s stop · r refresh · q quit');
  out.push(
    'legend: # concealed · % concealed fog · F flag · . empty · 1-8 mines around · ~ open fog (no number) · * dug mine · [ ] you',
  );
  for (const m of ui.message) out.push(`» ${m}`);
  out.push('');
  for (const l of ui.log.slice(-10)) out.push(l);
  const o = mines.outcome(ui.state);
  if (o) out.push('', `GAME OVER: ${o.reason}. Press q to quit.`);
  return out.join('\n');
}

function adjacent(a: Cell, b: Cell): boolean {
  const dx = Math.abs(a[0] - b[0]);
  const dy = Math.abs(a[1] - b[1]);
  return dx <= 1 && dy <= 1 && dx + dy > 0;
}

/** The action for a key at the cursor. */
function actionFor(ui: Ui, key: 'dig' | 'flag' | 'move' | 'stop' | 'refresh'): MinesAction {
  const v = minesView(ui.state);
  const c: Cell = [ui.cursor[0], ui.cursor[1]];
  if (key === 'stop') return { type: 'stop' };
  if (key === 'refresh') return { type: 'refresh' };
  if (key === 'move') return { type: 'move', cell: c };
  const ch = v.rows[c[1]][c[0]];
  if (key === 'dig' && !(ch === '#' || ch === '%' || ch === 'F')) return { type: 'move', cell: c }; // an open cell moves (no chord)
  const intent: Intent =
    key === 'dig' ? { type: 'dig', cell: c } : { type: ch === 'F' ? 'flag_pull' : 'flag_place', cell: c };
  if (v.pos === null || adjacent(v.pos, c)) return intent;
  // out of reach: walk to an open neighbour of the target first, in the same batch
  for (const a of mines.legal(ui.state, 0).actions) {
    if (a.type === 'move' && adjacent(a.cell, c))
      return { type: 'batch', intents: [{ type: 'move', cell: a.cell }, intent] };
  }
  return intent; // the engine says why not
}

function intentsOf(a: MinesAction): { type: string }[] {
  return a.type === 'batch' ? a.intents : [a];
}

/** Submit through the checked entry point; say what happened, refusals in words. */
export function send(ui: Ui, action: MinesAction): void {
  const before: MinesView = minesView(ui.state);
  const r = act(mines, ui.state, 0, action);
  if (!r.ok) {
    const d = r.error.detail;
    const lines: string[] = [];
    if (d !== null && typeof d === 'object' && !Array.isArray(d) && Array.isArray(d.outcomes)) {
      // a batch none of whose intents could run: one sentence per intent
      const outcomes = d.outcomes.flatMap((o) => (o !== null && typeof o === 'object' && !Array.isArray(o) ? [o] : []));
      intentsOf(action).forEach((it, i) => {
        const o = outcomes[i];
        if (o)
          lines.push(
            `${describeAction(it as MinesAction)}: ${refusalSentence(it.type, { outcome: 'rejected', reject_reason: str(o.reject_reason), sub_reason: str(o.sub_reason) }, before.prices)}`,
          );
      });
    } else if (d !== null && typeof d === 'object' && !Array.isArray(d) && 'reject_reason' in d) {
      lines.push(
        `${describeAction(action)}: ${refusalSentence(action.type, { outcome: 'rejected', reject_reason: str(d.reject_reason), sub_reason: str(d.sub_reason) }, before.prices)}`,
      );
    } else lines.push(`${describeAction(action)}: not possible (${r.error.reason})`);
    ui.message = lines;
    return;
  }
  ui.state = r.state;
  const v = minesView(ui.state);
  const refused = outcomeLines(intentsOf(action), v.last, before.prices);
  ui.message = refused.length
    ? [`${describeAction(action)}: only partly carried out`, ...refused]
    : [describeAction(action)];
  ui.message.push(...diagnosticLines(v.diagnostics));
  for (const e of r.events as GameEvent[]) ui.log.push(describeEvent(e));
}

// detail values come back as Json; the sentence table only needs their text
function str<T extends string>(v: unknown): T | null {
  return typeof v === 'string' ? (v as T) : null;
}

export function handleKeys(ui: Ui, data: string): 'quit' | 'ok' {
  const keys = data.match(/\x1b\[[ABCD]|[\s\S]/g) ?? [];
  for (const k of keys) {
    const v = minesView(ui.state);
    const move = (dx: number, dy: number) => {
      ui.cursor = [
        Math.min(v.w - 1, Math.max(0, ui.cursor[0] + dx)),
        Math.min(v.h - 1, Math.max(0, ui.cursor[1] + dy)),
      ];
    };
    if (k === 'q' || k === '\x03') return 'quit';
    if (mines.outcome(ui.state)) continue;
    if (k === '\x1b[A' || k === 'k') move(0, -1);
    else if (k === '\x1b[B' || k === 'j') move(0, 1);
    else if (k === '\x1b[C' || k === 'l') move(1, 0);
    else if (k === '\x1b[D' || k === 'h') move(-1, 0);
    else {
      const key =
        k === 'd' || k === ' '
          ? 'dig'
          : k === 'f'
            ? 'flag'
            : k === 'm' || k === '\r' || k === '\n'
              ? 'move'
              : k === 's'
                ? 'stop'
                : k === 'r'
                  ? 'refresh'
                  : null;
      if (key !== null) send(ui, actionFor(ui, key));
    }
  }
  return 'ok';
}

export const playInTerminal: TerminalPlayer = async (io: TerminalIO, options) => {
  const ui = newUi(mines.setup(options.config, options.seed));
  const draw = () => io.write(`${ESC}H${ESC}2J` + renderScreen(ui) + '\n');
  draw();
  for (;;) {
    const key = await io.nextKey();
    if (key === '' || handleKeys(ui, key) === 'quit') break;
    draw();
  }
  const o = mines.outcome(ui.state);
  io.write(o ? `${o.reason}\n` : 'left the game\n');
};
