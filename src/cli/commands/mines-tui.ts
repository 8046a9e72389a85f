// `arbiter play mines --interactive`: a terminal player. Cursor keys (or hjkl) move the cursor;
// d/space digs, f places or pulls a flag, m/enter moves the figure, s stops the round, r pays a
// refresh, q quits. A dig or flag on a cell out of reach is sent as one batch [move, intent]
// (both settle in arrival order). The log shows the three event kinds as they come.

import { act, type GameEvent } from '../../kernel/index.ts';
import { mines, type MinesAction, type MinesState } from '../../rulesets/mines/index.ts';

const ESC = '\x1b[';
const GLYPH_COLOUR: Record<string, string> = {
  '#': '90', '%': '36', 'F': '31;1', '~': '36', '*': '35;1',
  '0': '37', '1': '34;1', '2': '32;1', '3': '31', '4': '35', '5': '33', '6': '36', '7': '37;1', '8': '90;1',
};

interface Ui {
  state: MinesState;
  cursor: [number, number];
  log: string[];
  message: string;
}

function view(ui: Ui) {
  return mines.view(ui.state, 0) as unknown as { w: number; h: number; rows: string[]; pos: [number, number]; ap: number; rap: number; round: number; max_rounds: number; remaining_safe: number; phase: string; prices: Record<string, number> };
}

export function renderScreen(ui: Ui): string {
  const v = view(ui);
  const out: string[] = [];
  out.push(`mines  round ${v.round}/${v.max_rounds}  AP ${v.ap}  RAP ${v.rap}  safe cells left ${v.remaining_safe}  phase ${v.phase}`);
  out.push('');
  for (let y = 0; y < v.h; y++) {
    let line = ' ';
    for (let x = 0; x < v.w; x++) {
      const ch = v.rows[y][x];
      const shown = ch === '0' ? '·' : ch;
      const fig = v.pos && v.pos[0] === x && v.pos[1] === y;
      const cur = ui.cursor[0] === x && ui.cursor[1] === y;
      const codes = [GLYPH_COLOUR[ch] ?? '37'];
      if (fig) codes.push('7');
      if (cur) codes.push('4', '43');
      line += `${ESC}${codes.join(';')}m${fig ? '@' : shown}${ESC}0m `;
    }
    out.push(line);
  }
  out.push('');
  out.push('arrows/hjkl cursor · d/space dig · f flag/pull · m/enter move · s stop · r refresh · q quit');
  out.push('legend: # concealed · % concealed fog · F flag · digits open · ~ open fog · * dug mine · @ you');
  out.push(ui.message ? `» ${ui.message}` : '');
  out.push('');
  for (const l of ui.log.slice(-10)) out.push(l);
  const o = mines.outcome(ui.state);
  if (o) out.push('', `GAME OVER: ${o.reason}. Press q to quit.`);
  return out.join('\n');
}

function adjacent(a: [number, number], b: [number, number]): boolean {
  const dx = Math.abs(a[0] - b[0]);
  const dy = Math.abs(a[1] - b[1]);
  return dx <= 1 && dy <= 1 && dx + dy > 0;
}

/** The action for a key at the cursor (null: nothing to send). */
export function actionFor(ui: Ui, key: 'dig' | 'flag' | 'move' | 'stop' | 'refresh'): MinesAction | null {
  const v = view(ui);
  const c: [number, number] = [ui.cursor[0], ui.cursor[1]];
  if (key === 'stop') return { type: 'stop' };
  if (key === 'refresh') return { type: 'refresh' };
  if (key === 'move') return { type: 'move', cell: c };
  const ch = v.rows[c[1]][c[0]];
  const intent: MinesAction = key === 'dig' ? { type: 'dig', cell: c } : { type: ch === 'F' ? 'flag_pull' : 'flag_place', cell: c };
  if (key === 'dig' && !(ch === '#' || ch === '%' || ch === 'F')) return { type: 'move', cell: c }; // clicking an open cell moves (no chord)
  if (adjacent(v.pos, c)) return intent;
  // out of reach: walk to an open neighbour of the target first, in the same batch
  const menu = mines.legal(ui.state, 0).actions;
  for (const a of menu) {
    if (a.type === 'move' && adjacent(a.cell, c)) return { type: 'batch', intents: [{ type: 'move', cell: a.cell }, intent as never] };
  }
  return intent; // let the engine say why not
}

export function send(ui: Ui, action: MinesAction): void {
  const r = act(mines, ui.state, 0, action);
  if (!r.ok) {
    const d = r.error.detail as { reject_reason?: string; sub_reason?: string } | undefined;
    ui.message = `refused (${r.error.code}${d?.reject_reason ? ', ' + d.reject_reason : ''}${d?.sub_reason ? '/' + d.sub_reason : ''}): ${r.error.reason}`;
    return;
  }
  ui.state = r.state;
  ui.message = mines.describeAction!(action, 0);
  for (const e of r.events as GameEvent[]) ui.log.push(mines.describeEvent!(e));
}

export function handleKeys(ui: Ui, data: string): 'quit' | 'ok' {
  const v = view(ui);
  const keys = data.match(/\x1b\[[ABCD]|[\s\S]/g) ?? [];
  for (const k of keys) {
    const move = (dx: number, dy: number) => {
      ui.cursor = [Math.min(v.w - 1, Math.max(0, ui.cursor[0] + dx)), Math.min(v.h - 1, Math.max(0, ui.cursor[1] + dy))];
    };
    if (k === 'q' || k === '\x03') return 'quit';
    if (mines.outcome(ui.state)) continue;
    if (k === '\x1b[A' || k === 'k') move(0, -1);
    else if (k === '\x1b[B' || k === 'j') move(0, 1);
    else if (k === '\x1b[C' || k === 'l') move(1, 0);
    else if (k === '\x1b[D' || k === 'h') move(-1, 0);
    else {
      const key = k === 'd' || k === ' ' ? 'dig' : k === 'f' ? 'flag' : k === 'm' || k === '\r' || k === '\n' ? 'move' : k === 's' ? 'stop' : k === 'r' ? 'refresh' : null;
      if (key === null) continue;
      const a = actionFor(ui, key);
      if (a) send(ui, a);
    }
  }
  return 'ok';
}

export async function playMinesInteractive(options: { seed: number; config: Record<string, unknown> }): Promise<void> {
  const state = mines.setup(options.config, options.seed);
  const v0 = mines.view(state, 0) as unknown as { pos: [number, number] };
  const ui: Ui = { state, cursor: [v0.pos[0], v0.pos[1]], log: [], message: 'dig next to @; digits count the mines around a cell' };
  const stdin = process.stdin;
  const tty = stdin.isTTY === true;
  const draw = () => process.stdout.write(`${ESC}H${ESC}2J` + renderScreen(ui) + '\n');
  if (tty) stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  draw();
  await new Promise<void>((resolve) => {
    const onData = (data: string) => {
      if (handleKeys(ui, data) === 'quit') {
        stdin.off('data', onData);
        resolve();
        return;
      }
      draw();
    };
    stdin.on('data', onData);
    stdin.on('end', () => resolve());
  });
  if (tty) stdin.setRawMode(false);
  stdin.pause();
  const o = mines.outcome(ui.state);
  process.stdout.write(o ? `${o.reason}\n` : 'left the game\n');
}
