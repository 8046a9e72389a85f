// The seat's menu and the check of untrusted input. validate runs no transition: it checks the
// shape (closed schemas), then asks A2 and the ledger, read-only, whether the action would do
// anything. A batch is accepted when one of its intents passes that check against the current
// state: refused intents change nothing, so the first passing intent in settlement order is
// sure to execute (the batch's later refusals are its ActionOutcomes, decided in apply).

import {
  publishedSchema,
  reject,
  requireObject,
  type JsonObject,
  type Menu,
  type Pending,
  type Seat,
  type Validation,
} from '../../kernel/index.ts';
import { checkIntent, checkInvariants } from './board/engine.ts';
import { OPEN, CONCEALED, FLAG } from './board/closure.ts';
import { type Board, cellXY, neighbours, textToBytes } from './board/geometry.ts';
import type { ActionOutcome, Cell, Diagnostic, Intent } from './board/types.ts';
import { price } from './ledger/ledger.ts';
import { actionSchemas, MAX_BATCH } from './schema.ts';
import type { MinesAction, MinesState } from './state.ts';

// the batch family's template is its declared schema; the move template narrows the declared
// family to this board's cells
const BATCH_SCHEMA: JsonObject = publishedSchema(actionSchemas.batch);

function moveSchema(w: number, h: number): JsonObject {
  return {
    type: 'object',
    required: ['type', 'cell'],
    additionalProperties: false,
    properties: {
      type: { const: 'move' },
      cell: {
        type: 'array',
        minItems: 2,
        maxItems: 2,
        prefixItems: [
          { type: 'integer', minimum: 0, maximum: w - 1 },
          { type: 'integer', minimum: 0, maximum: h - 1 },
        ],
      },
    },
  };
}

/** Open cells in the figure's open component that touch a concealed cell (row-major). */
function frontierMoves(b: Board, cover: Uint8Array, pos: number): number[] {
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

/** One seat, asked for an intent until the run has ended. */
export function pending(s: MinesState): Pending[] {
  return s.run.ended === null ? [{ seat: 0, kind: 'intent' }] : [];
}

export function legal(s: MinesState, seat: Seat): Menu<MinesAction> {
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
  const first: Intent = digs.length && digs[0].type === 'dig' ? digs[0] : { type: 'stop' };
  actions.push({ type: 'batch', intents: [first] });
  return {
    actions,
    templates: [
      {
        family: 'batch',
        schema: BATCH_SCHEMA,
        example: { type: 'batch', intents: [first] },
        description: 'several intents settled as one transaction (semantic order: clearing dig, stop, the rest)',
      },
      {
        family: 'move',
        schema: moveSchema(b.w, b.h),
        example: { type: 'move', cell: cellXY(b.w, pos) },
        description: 'teleport to any open cell reachable through open cells (the menu lists the frontier ones)',
      },
    ],
  };
}

function isCell(v: unknown): v is Cell {
  return Array.isArray(v) && v.length === 2 && Number.isSafeInteger(v[0]) && Number.isSafeInteger(v[1]);
}

/**
 * The closed shape of one intent (an integer cell anywhere, on the board or not: whether it lies
 * on the board is A2's check, EC9). Returns the intent as a fresh record, or the reason it is not one.
 */
function parseIntent(o: Record<string, unknown>, inBatch: boolean): Intent | MinesAction | string {
  const t = o.type;
  if (typeof t !== 'string') return 'type must be a string';
  const keys = Object.keys(o).sort().join(',');
  if (t === 'dig' || t === 'flag_place' || t === 'flag_pull' || t === 'move') {
    if (keys !== 'cell,type') return `a ${t} is {"type","cell"} and nothing else`;
    if (!isCell(o.cell)) return 'cell must be [x, y] with integer x and y';
    return { type: t, cell: [o.cell[0], o.cell[1]] };
  }
  if (t === 'stop' || (!inBatch && t === 'refresh'))
    return keys === 'type' ? { type: t } : `a ${t} is {"type"} and nothing else`;
  if (!inBatch && t === 'batch') {
    if (keys !== 'intents,type') return 'a batch is {"type":"batch","intents":[...]}';
    if (!Array.isArray(o.intents) || o.intents.length < 1 || o.intents.length > MAX_BATCH)
      return `intents must be a list of 1 to ${MAX_BATCH} intents`;
    const intents: Intent[] = [];
    for (const it of o.intents) {
      if (it === null || typeof it !== 'object' || Array.isArray(it)) return 'every intent must be an object';
      const p = parseIntent(it as Record<string, unknown>, true);
      if (typeof p === 'string') return `intent: ${p}`;
      if (p.type === 'batch' || p.type === 'refresh')
        return 'intent: a batch holds dig, flag_place, flag_pull, move and stop';
      intents.push(p);
    }
    return { type: 'batch', intents };
  }
  return `unknown action type "${t}" (dig, flag_place, flag_pull, move, stop, batch, refresh)`;
}

function refusalDetail(r: ActionOutcome, diagnostics: Diagnostic[]): JsonObject {
  return { reject_reason: r.reject_reason, sub_reason: r.sub_reason, ...(diagnostics.length ? { diagnostics } : {}) };
}

export function validate(s: MinesState, _seat: Seat, input: unknown): Validation<MinesAction> {
  const obj = requireObject(input);
  if (!obj.ok) return obj;
  const parsed = parseIntent(obj.action, false);
  if (typeof parsed === 'string') return { ok: false, error: reject('bad_request', parsed) };
  if (parsed.type === 'refresh') {
    if (s.a2.board === null || s.a3.phase !== 'Active')
      return {
        ok: false,
        error: reject('illegal', 'refresh refused: phase', { reject_reason: 'phase', sub_reason: null }),
      };
    // the orchestrator checks the new board before paying: a fixture is known now; a generated
    // board passes install by the generator's contract (apply still checks and reports it)
    const category = s.run.fixture !== null ? checkInvariants(s.run.fixture) : null;
    if (category !== null)
      return {
        ok: false,
        error: reject('illegal', `refresh refused: board_invalid (${category})`, {
          reject_reason: 'board_invalid',
          sub_reason: null,
          category,
        }),
      };
    if (s.a3.rap < s.a3.table.rap_refresh_cost)
      return {
        ok: false,
        error: reject('illegal', 'refresh refused: resource_face', {
          reject_reason: 'resource_face',
          sub_reason: null,
        }),
      };
    return { ok: true, action: parsed };
  }
  const intents: Intent[] = parsed.type === 'batch' ? parsed.intents : [parsed];
  const outcomes: ActionOutcome[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const it of intents) {
    const no = checkIntent(s, it);
    if (no === null) return { ok: true, action: parsed };
    outcomes.push(no.outcome);
    if (no.diagnostic !== null) diagnostics.push(no.diagnostic);
  }
  if (parsed.type !== 'batch') {
    const r = outcomes[0];
    // U-M9: a cell off the board is a bad request at the contract level; A2's sub_reason and its
    // debug diagnostic travel in the detail (drive answers and log records carry both)
    const code = r.sub_reason === 'out_of_catalog' ? 'bad_request' : 'illegal';
    return {
      ok: false,
      error: reject(
        code,
        `${parsed.type} refused: ${r.reject_reason}${r.sub_reason ? '/' + r.sub_reason : ''}`,
        refusalDetail(r, diagnostics),
      ),
    };
  }
  // a one-intent batch (what the web board sends) names its refusal like the plain intent does
  const one = outcomes.length === 1 ? outcomes[0] : null;
  const reason =
    one !== null
      ? `${intents[0].type} refused: ${one.reject_reason}${one.sub_reason ? '/' + one.sub_reason : ''}`
      : 'no intent of the batch can be executed';
  return {
    ok: false,
    error: reject('illegal', reason, { outcomes, ...(diagnostics.length ? { diagnostics } : {}) }),
  };
}
