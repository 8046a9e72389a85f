// The `mines` ruleset: A2 (board rules) with its A3 ledger and a minimal B1 orchestrator, wrapped
// in the engine contract. One seat. Each accepted action is one settle_batch (or the refresh
// path); after a round end the B1 role settles it and opens the next round on its own.

import {
  ArbiterError,
  checkSeed,
  cloneJson,
  createRng,
  nextU32,
  reject,
  requireObject,
  type GameEvent,
  type Json,
  type Menu,
  type Outcome,
  type Pending,
  type RngState,
  type Ruleset,
  type Validation,
} from '../../kernel/index.ts';
import { catalog } from './catalog.ts';
import { minesAgents } from './agents.ts';
import { MINES_PRESETS } from './config.ts';
import { catalogRulesPage, type JsonObject, type RulesetPackage } from '../../kernel/index.ts';
import { type Board, MINE_CH, cellXY, neighbours, textToBytes } from './board/geometry.ts';
import { CONCEALED, FLAG, OPEN } from './board/closure.ts';
import { type A2State, createA2, installBoard, settleBatch } from './board/engine.ts';
import type { ActionOutcome, Cell, Intent, MinesEvent, Sink } from './board/types.ts';
import { createLedger, price, type LedgerState } from './ledger/ledger.ts';
import { notifyRoundStart, notifySettlementDone, refreshBoard } from './orchestrator/orchestrator.ts';
import { DEFAULT_CONFIG, parseConfig } from './config.ts';
import { generate, GenError, type GenParams } from './generator/generator.ts';

export interface RunState {
  boards_target: number;
  max_rounds: number;
  boards_cleared: number;
  boards_installed: number;
  /** A fixture board is re-installed for every new board; null when boards are generated. */
  fixture: Board | null;
  gen: Required<GenParams> | null;
  ended: null | 'cleared' | 'round_cap';
  /** The ActionOutcome list of the last settled batch (A2's return value, shown in the view). */
  last: ActionOutcome[];
  mines_dug: number;
}

export interface MinesState {
  a2: A2State;
  a3: LedgerState;
  run: RunState;
  rng: RngState;
}

export type CellAction = { type: 'dig' | 'flag_place' | 'flag_pull' | 'move'; cell: Cell };
export type MinesAction = CellAction | { type: 'stop' } | { type: 'refresh' } | { type: 'batch'; intents: Intent[] };

const CELL_TYPES = new Set(['dig', 'flag_place', 'flag_pull', 'move']);
export const MAX_BATCH = 32;

const quietSink = (events: GameEvent[] | null): Sink => ({
  emit: (e) => {
    if (events) events.push(e as unknown as GameEvent);
  },
  diagnose: () => {},
});

function nextBoard(s: MinesState): Board {
  if (s.run.fixture !== null) return cloneJson(s.run.fixture);
  const seed = nextU32(s.rng, 'boards');
  try {
    return generate(s.run.gen as Required<GenParams>, seed);
  } catch (e) {
    if (e instanceof GenError) throw new ArbiterError('bad_config', e.message);
    throw e;
  }
}

/** B1's part after a round end: count the clear, end the run, or settle and open the next round. */
function afterRound(s: MinesState, sink: Sink): void {
  if (s.a3.phase !== 'Waiting' || s.run.ended !== null) return;
  const rec = s.a3.last_round_end;
  if (rec === null) return;
  if (rec.path_tag === 'cleared') s.run.boards_cleared++;
  if (s.run.boards_cleared >= s.run.boards_target) {
    s.run.ended = 'cleared';
    return;
  }
  if (s.a3.round >= s.run.max_rounds) {
    s.run.ended = 'round_cap';
    return;
  }
  const next = rec.continuation_hint === 'new_board' ? nextBoard(s) : undefined;
  if (next) s.run.boards_installed++;
  notifySettlementDone(s, rec.continuation_hint, sink, next);
  notifyRoundStart(s);
}

/** Runs one action; returns the invariant category when a refresh board is refused. */
function runAction(s: MinesState, a: MinesAction, sink: Sink): string | null {
  if (a.type === 'refresh') {
    const r = refreshBoard(s, nextBoard(s), sink);
    if (r.accepted) s.run.boards_installed++;
    s.run.last = [{ accepted: r.accepted, outcome: r.accepted ? 'executed' : 'rejected', reject_reason: r.reject_reason, sub_reason: null }];
    return r.category;
  } else {
    const intents = a.type === 'batch' ? a.intents : [a as Intent];
    s.run.last = settleBatch(s, intents, sink);
  }
  return null;
}

function checkCellShape(v: unknown): v is Cell {
  return Array.isArray(v) && v.length === 2 && Number.isSafeInteger(v[0]) && Number.isSafeInteger(v[1]);
}

/** Shape of one intent (inside a batch, out-of-board cells are left to A2's out_of_catalog). */
function shapeError(o: Record<string, unknown>, inBatch: boolean): string | null {
  const t = o.type;
  if (typeof t !== 'string') return 'type must be a string';
  const keys = Object.keys(o).sort().join(',');
  if (CELL_TYPES.has(t)) {
    if (keys !== 'cell,type') return `a ${t} is {"type","cell"} and nothing else`;
    if (!checkCellShape(o.cell)) return 'cell must be [x, y] with integer x and y';
    return null;
  }
  if (t === 'stop' || (!inBatch && t === 'refresh')) return keys === 'type' ? null : `a ${t} is {"type"} and nothing else`;
  if (!inBatch && t === 'batch') {
    if (keys !== 'intents,type') return 'a batch is {"type":"batch","intents":[...]}';
    if (!Array.isArray(o.intents) || o.intents.length < 1 || o.intents.length > MAX_BATCH) return `intents must be a list of 1 to ${MAX_BATCH} intents`;
    for (const it of o.intents) {
      if (it === null || typeof it !== 'object' || Array.isArray(it)) return 'every intent must be an object';
      const e = shapeError(it as Record<string, unknown>, true);
      if (e) return `intent: ${e}`;
    }
    return null;
  }
  return `unknown action type "${t}" (dig, flag_place, flag_pull, move, stop, batch, refresh)`;
}

const BATCH_SCHEMA = {
  type: 'object',
  required: ['type', 'intents'],
  additionalProperties: false,
  properties: {
    type: { const: 'batch' },
    intents: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_BATCH,
      items: {
        oneOf: [
          {
            type: 'object',
            required: ['type', 'cell'],
            additionalProperties: false,
            properties: {
              type: { enum: ['dig', 'flag_place', 'flag_pull', 'move'] },
              cell: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 },
            },
          },
          { type: 'object', required: ['type'], additionalProperties: false, properties: { type: { const: 'stop' } } },
        ],
      },
    },
  },
} as const;

function moveSchema(w: number, h: number) {
  return {
    type: 'object',
    required: ['type', 'cell'],
    additionalProperties: false,
    properties: {
      type: { const: 'move' },
      cell: { type: 'array', minItems: 2, maxItems: 2, prefixItems: [{ type: 'integer', minimum: 0, maximum: w - 1 }, { type: 'integer', minimum: 0, maximum: h - 1 }] },
    },
  };
}

// View glyphs: '#' concealed, '%' concealed fog, 'F' flag, '0'-'8' open safe, '~' open fog
// (digit hidden by presentation, U-M11), '*' open (dug) mine.
function renderRows(b: Board, cover: string): string[] {
  const fogAt = new Set(b.variants.filter(([, ids]) => ids.includes('fog')).map(([c]) => c));
  const rows: string[] = [];
  for (let y = 0; y < b.h; y++) {
    let r = '';
    for (let x = 0; x < b.w; x++) {
      const i = y * b.w + x;
      const st = cover.charCodeAt(i);
      if (st === FLAG) r += 'F';
      else if (st === CONCEALED) r += fogAt.has(i) ? '%' : '#';
      else if (b.mines.charCodeAt(i) === MINE_CH) r += '*';
      else r += fogAt.has(i) ? '~' : b.digits[i];
    }
    rows.push(r);
  }
  return rows;
}

export const mines: Ruleset<MinesState, MinesAction> = {
  id: 'mines',
  version: 'mines-a2-2.0',
  title: 'Minesweeper rules layer (A2 with A3 ledger and B1 orchestrator)',
  catalog,
  defaultConfig: DEFAULT_CONFIG,
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      board: { type: ['string', 'object'], description: 'a fixture board name (b_spawn, b_chain, b_fog, ...) or a board object, instead of a generated one' },
      width: { type: 'integer', minimum: 1, default: DEFAULT_CONFIG.width, description: 'generated board width' },
      height: { type: 'integer', minimum: 1, default: DEFAULT_CONFIG.height, description: 'generated board height' },
      mines: { type: 'integer', minimum: 0, default: DEFAULT_CONFIG.mines, description: 'mine count' },
      fog: { type: 'integer', minimum: 0, default: DEFAULT_CONFIG.fog, description: 'fog cells' },
      spawn: { type: 'integer', minimum: 0, description: 'spawn cell index (default: the centre)' },
      no_guess: { type: 'boolean', default: DEFAULT_CONFIG.no_guess, description: 'repair generated boards until deduction clears them' },
      boards: { type: 'integer', minimum: 1, maximum: 1000, default: DEFAULT_CONFIG.boards, description: 'boards to clear to win the run' },
      max_rounds: { type: 'integer', minimum: 1, maximum: 100000, default: DEFAULT_CONFIG.max_rounds, description: 'round cap of the run' },
      economy: { type: 'object', description: 'overrides of the AP price table' },
    },
  },

  setup(config, seed, events) {
    checkSeed(seed);
    const cfg = parseConfig(config);
    const s: MinesState = {
      a2: createA2(),
      a3: createLedger(cfg.economy),
      run: {
        boards_target: cfg.boards,
        max_rounds: cfg.max_rounds,
        boards_cleared: 0,
        boards_installed: 1,
        fixture: cfg.source.kind === 'fixture' ? cfg.source.board : null,
        gen: cfg.source.kind === 'generated' ? cfg.source.params : null,
        ended: null,
        last: [],
        mines_dug: 0,
      },
      rng: createRng(seed),
    };
    const r = installBoard(s, nextBoard(s), quietSink(events ?? null));
    if (!r.accepted) throw new ArbiterError('bad_config', `the board cannot be installed: ${r.category}`, { category: r.category });
    notifyRoundStart(s);
    return s;
  },

  seats: () => 1,

  pending(s): Pending[] {
    return s.run.ended === null ? [{ seat: 0, kind: 'intent' }] : [];
  },

  legal(s, seat): Menu<MinesAction> {
    const b = s.a2.board;
    if (seat !== 0 || s.run.ended !== null || b === null || s.a3.phase !== 'Active') return { actions: [] };
    const cover = textToBytes(s.a2.cover);
    const pos = s.a2.pos;
    const digs: MinesAction[] = [];
    const places: MinesAction[] = [];
    const pulls: MinesAction[] = [];
    const nb = new Int32Array(8);
    const k = neighbours(b.w, b.h, pos, nb);
    const around = Array.from(nb.subarray(0, k)).sort((p, q) => p - q);
    for (const c of around) {
      const cell = cellXY(b.w, c);
      if (cover[c] === CONCEALED) {
        if (s.a3.ap >= price(s.a3, 'dig')) digs.push({ type: 'dig', cell });
        if (s.a3.ap >= price(s.a3, 'flag_place')) places.push({ type: 'flag_place', cell });
      } else if (cover[c] === FLAG && s.a3.ap >= price(s.a3, 'flag_pull')) pulls.push({ type: 'flag_pull', cell });
    }
    const moves = frontierMoves(b, cover, pos).map((c): MinesAction => ({ type: 'move', cell: cellXY(b.w, c) }));
    const actions: MinesAction[] = [...digs, ...places, ...pulls, ...moves, { type: 'stop' }];
    if (s.a3.rap >= s.a3.table.rap_refresh_cost) actions.push({ type: 'refresh' });
    const example: MinesAction = { type: 'batch', intents: [digs.length ? (digs[0] as Intent) : { type: 'stop' }] };
    actions.push(example);
    return {
      actions,
      templates: [
        { family: 'batch', schema: BATCH_SCHEMA as never, example: example as never, description: 'several intents settled as one transaction (semantic order: clearing dig, stop, the rest)' },
        { family: 'move', schema: moveSchema(b.w, b.h) as never, example: { type: 'move', cell: cellXY(b.w, pos) }, description: 'teleport to any open cell reachable through open cells (the menu lists the frontier ones)' },
      ],
    };
  },

  validate(s, _seat, input): Validation<MinesAction> {
    const obj = requireObject(input);
    if (!obj.ok) return obj;
    const o = obj.action as Record<string, unknown>;
    const err = shapeError(o, false);
    if (err) return { ok: false, error: reject('bad_request', err) };
    const b = s.a2.board;
    if (b !== null && CELL_TYPES.has(o.type as string)) {
      const [x, y] = o.cell as Cell;
      if (x < 0 || y < 0 || x >= b.w || y >= b.h) {
        return { ok: false, error: reject('bad_request', `cell [${x}, ${y}] is off the ${b.w}x${b.h} board`, { reject_reason: 'board_face', sub_reason: 'out_of_catalog' }) };
      }
    }
    const action = cloneJson(o) as unknown as MinesAction;
    // dry run on a copy: the one implementation decides, and nothing here can change `s`
    const trial = cloneJson(s);
    let last: ActionOutcome[];
    let category: string | null;
    try {
      category = runAction(trial, action, quietSink(null));
      last = trial.run.last;
    } catch (e) {
      return { ok: false, error: reject('illegal', `cannot do that now: ${(e as Error).message}`) };
    }
    if (last.some((r) => r.outcome === 'executed')) return { ok: true, action };
    if (last.length === 1) {
      const r = last[0];
      return {
        ok: false,
        error: reject('illegal', `${action.type} refused: ${r.reject_reason}${r.sub_reason ? '/' + r.sub_reason : ''}`, {
          reject_reason: r.reject_reason,
          sub_reason: r.sub_reason,
          ...(category ? { category } : {}),
        }),
      };
    }
    return { ok: false, error: reject('illegal', 'no intent of the batch can be executed', { outcomes: last as unknown as Json }) };
  },

  apply(s, _seat, a, events) {
    const sink = quietSink(events);
    const from = events.length;
    runAction(s, a, sink);
    for (let i = from; i < events.length; i++) {
      const e = events[i];
      if (e.type === 'cell_revealed' && e.kind === 'mine') s.run.mines_dug++;
    }
    afterRound(s, sink);
  },

  view(s) {
    const b = s.a2.board;
    return {
      board: s.run.fixture !== null ? s.run.fixture.id : 'generated',
      w: b ? b.w : 0,
      h: b ? b.h : 0,
      rows: b ? renderRows(b, s.a2.cover) : [],
      pos: b ? cellXY(b.w, s.a2.pos) : null,
      remaining_safe: s.a2.rem,
      phase: s.a3.phase,
      ap: s.a3.ap,
      rap: s.a3.rap,
      round: s.a3.round,
      max_rounds: s.run.max_rounds,
      boards_cleared: s.run.boards_cleared,
      boards_target: s.run.boards_target,
      prices: { ...s.a3.table },
      last: s.run.last as unknown as Json,
      ended: s.run.ended,
    };
  },

  secrets(s) {
    const b = s.a2.board;
    if (b === null) return [];
    const out: Json[] = [b.mines, b.digits];
    if (s.run.fixture === null) out.push(b.id);
    if (b.w * b.h <= 10000) {
      for (let i = 0; i < b.w * b.h; i++) {
        if (b.mines.charCodeAt(i) === MINE_CH && s.a2.cover.charCodeAt(i) !== OPEN) out.push(cellXY(b.w, i));
      }
    }
    return out;
  },

  outcome(s): Outcome | null {
    if (s.run.ended === null) return null;
    const won = s.run.ended === 'cleared';
    return {
      winners: won ? [0] : [],
      scores: [s.run.boards_cleared],
      reason: won ? `cleared ${s.run.boards_cleared} board(s)` : `round cap of ${s.run.max_rounds} reached`,
      detail: { rounds: s.a3.round, mines_dug: s.run.mines_dug, rap: s.a3.rap },
    };
  },

  describeEvent(e) {
    const ev = e as unknown as MinesEvent;
    if (ev.type === 'cell_revealed') {
      const what = ev.kind === 'mine' ? 'a MINE' : `${ev.digit}${ev.variant_ids.length ? ' (' + ev.variant_ids.join(',') + ')' : ''}`;
      return `open [${ev.cell}] (${ev.channel}): ${what}`;
    }
    if (ev.type === 'flag_judged') return `flag at [${ev.cell}] judged: ${ev.hit ? 'on a mine' : 'on a safe cell'}`;
    if (ev.type === 'round_end') return `round ends: ${ev.path_tag} (${ev.continuation_hint})`;
    return e.type;
  },

  describeAction(a) {
    if (a.type === 'batch') return `batch of ${a.intents.length}: ${a.intents.map((i) => i.type + (i.cell ? ` [${i.cell}]` : '')).join(', ')}`;
    return 'cell' in a ? `${a.type} [${a.cell}]` : a.type;
  },

  invariants(s) {
    const bad: string[] = [];
    const b = s.a2.board;
    if (s.a3.ap < 0 || s.a3.rap < 0) bad.push('A3: AP and RAP are never negative');
    if (s.a3.phase === 'Active' && s.a3.ap === 0 && s.a3.table.dig_ap_cost > 0) bad.push('R10: no zero-AP window inside an Active round');
    if (b === null) return bad;
    let rem = 0;
    for (let i = 0; i < b.w * b.h; i++) {
      const open = s.a2.cover.charCodeAt(i) === OPEN;
      if (!open && b.mines.charCodeAt(i) !== MINE_CH) rem++;
      if (s.a2.cover.charCodeAt(i) === FLAG && open) bad.push('R8: flags only on concealed cells');
    }
    if (rem !== s.a2.rem) bad.push(`F1: rem ${s.a2.rem} equals the concealed safe cells ${rem}`);
    if (s.a2.cover.charCodeAt(s.a2.pos) !== OPEN) bad.push('R7: the figure stands on an open cell');
    return bad;
  },

  checkTransition(before, after, _seat, action, events) {
    const bad: string[] = [];
    const kinds = new Set(['cell_revealed', 'flag_judged', 'round_end']);
    for (const e of events) if (!kinds.has(e.type)) bad.push(`R2: event kind ${e.type} outside the three`);
    const ends = events.filter((e) => e.type === 'round_end').length;
    if (ends > 1) bad.push(`R2/R10: ${ends} round_end events from one action`);
    // judgments come in one block right before the round_end
    const firstJudge = events.findIndex((e) => e.type === 'flag_judged');
    if (firstJudge >= 0) {
      const end = events.findIndex((e) => e.type === 'round_end');
      if (end < firstJudge) bad.push('R2: flag_judged without a following round_end');
      for (let i = firstJudge; i < end; i++) if (events[i].type !== 'flag_judged') bad.push('R2: judgments are not contiguous before round_end');
    }
    const sameBoard = before.a2.board?.id === after.a2.board?.id && before.run.boards_installed === after.run.boards_installed;
    if (sameBoard && after.a2.rem > before.a2.rem) bad.push('F1: rem grew on the same board');
    if (action.type === 'move' && events.length > 0) bad.push('R7: a move emitted events');
    if (before.a3.round === after.a3.round && after.a3.rap < before.a3.rap && action.type !== 'refresh') bad.push('A3: RAP fell outside a refresh');
    return bad;
  },

  metrics(s, events) {
    let chain = 0;
    let opened = 0;
    for (const e of events) {
      if (e.type === 'cell_revealed' && e.channel !== 'initial') {
        opened++;
        if (e.channel === 'chain') chain++;
      }
    }
    return { rounds: s.a3.round, boards_cleared: s.run.boards_cleared, mines_dug: s.run.mines_dug, cells_opened: opened, chain_cells: chain, rap: s.a3.rap };
  },
};

/** Open cells in the figure's open component that touch a concealed cell (row-major). */
export function frontierMoves(b: Board, cover: Uint8Array, pos: number): number[] {
  const n = b.w * b.h;
  const seen = new Uint8Array(n);
  const queue = new Int32Array(n);
  const nb = new Int32Array(8);
  seen[pos] = 1;
  queue[0] = pos;
  let head = 0;
  let tail = 1;
  const out: number[] = [];
  while (head < tail) {
    const x = queue[head++];
    const k = neighbours(b.w, b.h, x, nb);
    let edge = false;
    for (let j = 0; j < k; j++) {
      const y = nb[j];
      if (cover[y] !== OPEN) {
        edge = true;
        continue;
      }
      if (!seen[y]) {
        seen[y] = 1;
        queue[tail++] = y;
      }
    }
    if (edge && x !== pos) out.push(x);
  }
  return out.sort((p, q) => p - q);
}


export const minesPackage: RulesetPackage<MinesState, MinesAction> = {
  ruleset: mines,
  gameType: { seats: { min: 1, max: 1 }, turns: 'sequential', chance: 'setup', information: 'imperfect', outcome: ['winners', 'scores'] },
  agents: { solver: { factory: minesAgents.solver, description: 'deduces safe cells from the visible digits; guesses only when stuck', reads: 'view' } },
  presets: MINES_PRESETS as Record<string, JsonObject>,
  tools: [],
  scenarios: 'scenarios/mines',
  rulesPage: () => catalogRulesPage(mines, minesPackage.gameType),
};
