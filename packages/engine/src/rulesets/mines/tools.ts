// The package's subcommands, declared as data: `arbiter mines generate` (the seeded A1-role
// generator with its inference-rate metric and no-guess mode) and `arbiter mines events` (run an
// intent list on a board and print the event stream or its hash: AC-19 across processes, with
// A2's diagnostics on stderr or, under --diagnostics, in the stream). They touch the outside
// world only through the ToolIO the CLI gives them.

import { ArbiterError, canonicalJson, hashText, type RulesetTool, type ToolIO } from '../../kernel/index.ts';
import { createA2, installBoard, settleBatch } from './board/engine.ts';
import type { Board } from './board/geometry.ts';
import type { Diagnostic, MinesEvent } from './board/types.ts';
import { FIXTURE_NAMES, fixture } from './fixtures.ts';
import { GenError, generate, parseBoardId, type GenParams } from './generator/generator.ts';
import { solveBoard } from './generator/solver.ts';
import { economyTable } from './ledger/economy.ts';
import { createLedger } from './ledger/ledger.ts';
import { notifyRoundStart, notifySettlementDone } from './orchestrator/orchestrator.ts';

type Options = Record<string, string | number | boolean | undefined>;

function intOpt(o: Options, name: string): number | undefined {
  const v = o[name];
  if (v === undefined) return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n)) throw new ArbiterError('bad_request', `--${name} must be an integer (got "${String(v)}")`);
  return n;
}

function strOpt(o: Options, name: string): string | undefined {
  const v = o[name];
  return v === undefined ? undefined : String(v);
}

/** The board as text: '*' mine, '.' zero, digits; fog inverted, the spawn square underlined. */
function boardText(b: Board): string {
  const fog = new Set(b.variants.map(([c]) => c));
  const lines: string[] = [];
  for (let y = 0; y < b.h; y++) {
    let r = '';
    for (let x = 0; x < b.w; x++) {
      const i = y * b.w + x;
      const ch = b.mines[i] === '1' ? '*' : b.digits[i] === '0' ? '.' : b.digits[i];
      r += fog.has(i)
        ? `\x1b[7m${ch}\x1b[0m`
        : Math.abs(x - b.spawn[0]) <= 1 && Math.abs(y - b.spawn[1]) <= 1
          ? `\x1b[4m${ch}\x1b[0m`
          : ch;
    }
    lines.push(r);
  }
  return lines.join('\n');
}

function boardFrom(o: Options, seed: number): Board {
  try {
    const name = strOpt(o, 'fixture');
    if (name !== undefined) {
      if (!FIXTURE_NAMES.includes(name))
        throw new ArbiterError('not_found', `unknown fixture "${name}" (known: ${FIXTURE_NAMES.join(', ')})`);
      return fixture(name);
    }
    const id = strOpt(o, 'id');
    if (id !== undefined) {
      const { params, seed: s } = parseBoardId(id);
      return generate(params, s);
    }
    let spawn: [number, number] | undefined;
    const sp = strOpt(o, 'spawn');
    if (sp !== undefined) {
      const m = /^(\d+),(\d+)$/.exec(sp);
      if (!m) throw new ArbiterError('bad_request', '--spawn must be X,Y');
      spawn = [Number(m[1]), Number(m[2])];
    }
    const p: Partial<GenParams> = {
      width: intOpt(o, 'width') ?? 16,
      height: intOpt(o, 'height') ?? 16,
      mines: intOpt(o, 'mines') ?? 40,
      fog: intOpt(o, 'fog') ?? 0,
      spawn,
      // a CLI parser may hand `--no-guess` over as the negation of `guess`
      no_guess: o['no-guess'] === true || o.noGuess === true || o.guess === false,
    };
    return generate(p, seed);
  } catch (e) {
    if (e instanceof GenError) throw new ArbiterError('bad_config', e.message);
    throw e;
  }
}

const generateTool: RulesetTool = {
  name: 'generate',
  description:
    'generate boards from (parameters, seed); print id, inference rate and timing (use --id to reproduce one)',
  options: [
    { name: 'width', type: 'int', description: 'columns (4..2000)' },
    { name: 'height', type: 'int', description: 'rows (4..2000)' },
    { name: 'mines', type: 'int', description: 'mine count' },
    { name: 'fog', type: 'int', description: 'fog cells (safe, non-zero, outside the spawn square and R0)' },
    { name: 'spawn', type: 'string', description: 'centre of the 3x3 spawn square as x,y (default: the board centre)' },
    {
      name: 'no-guess',
      type: 'boolean',
      description: 'only emit boards the deduction solver clears from R0 without a guess',
    },
    { name: 'seed', type: 'int', description: 'seed of the first board', default: 1 },
    { name: 'count', type: 'int', description: 'boards to generate (seeds seed, seed+1, ...)', default: 1 },
    { name: 'id', type: 'string', description: 'reproduce the board with this id' },
    { name: 'show', type: 'boolean', description: 'print the board (mines *, digits, fog inverted, spawn underlined)' },
    { name: 'json', type: 'boolean', description: 'print boards as JSON lines (the board product plus metrics)' },
  ],
  run(_args, o, io: ToolIO) {
    const seed = intOpt(o, 'seed') ?? 1;
    const n = o.id !== undefined ? 1 : Math.max(1, intOpt(o, 'count') ?? 1);
    let cleared = 0;
    let rateSum = 0;
    let genMs = 0;
    for (let k = 0; k < n; k++) {
      const t0 = performance.now();
      const b = boardFrom(o, seed + k);
      const ms = performance.now() - t0;
      genMs += ms;
      const r = solveBoard(b);
      if (r.cleared) cleared++;
      rateSum += r.rate;
      if (o.json === true)
        io.out(
          JSON.stringify({
            board: b,
            r0: r.r0,
            safe: r.safe,
            inference_rate: r.rate,
            cleared_without_guess: r.cleared,
            ms,
          }) + '\n',
        );
      else {
        io.out(
          `${b.id}  R0 ${r.r0}/${r.safe} safe  inference rate ${(r.rate * 100).toFixed(1)}%${r.cleared ? ' (no guess needed)' : ''}  ${ms.toFixed(2)} ms\n`,
        );
        if (o.show === true) io.out(boardText(b) + '\n');
      }
    }
    if (o.json !== true && n > 1) {
      io.out(
        `${n} boards: ${cleared} cleared without a guess (${((cleared / n) * 100).toFixed(1)}%), mean inference rate ${((rateSum / n) * 100).toFixed(1)}%, ${(genMs / n).toFixed(2)} ms per board\n`,
      );
    }
    return 0;
  },
};

const eventsTool: RulesetTool = {
  name: 'events',
  description:
    'install a board, run an intent list (JSON: a list of batches, each a list of intents) through settle_batch, print the events or their hash',
  options: [
    {
      name: 'intents',
      type: 'string',
      description:
        'JSON file: [[{"type":"dig","cell":[x,y]}, ...], ...]; a batch {"next_round":true} settles and opens the next round',
    },
    { name: 'fixture', type: 'string', description: 'a registered fixture board' },
    { name: 'id', type: 'string', description: 'a generator board id' },
    { name: 'hash', type: 'boolean', description: 'print only the hash of the canonical event stream' },
    {
      name: 'diagnostics',
      type: 'boolean',
      description: 'also print A2\'s diagnostics in the stream, as {"diagnostic": ...} lines where they occur',
    },
  ],
  run(_args, o, io: ToolIO) {
    const file = strOpt(o, 'intents');
    if (file === undefined) throw new ArbiterError('bad_request', 'give --intents FILE');
    if (o.fixture === undefined && o.id === undefined)
      throw new ArbiterError('bad_request', 'give --fixture NAME or --id BOARD_ID');
    const board = boardFrom(o, 0);
    let batches: unknown;
    try {
      batches = JSON.parse(io.readText(file));
    } catch (e) {
      throw new ArbiterError('bad_request', `cannot read ${file}: ${(e as Error).message}`);
    }
    if (!Array.isArray(batches)) throw new ArbiterError('bad_request', 'the intents file must hold a list of batches');
    const w = { a2: createA2(), a3: createLedger(economyTable({})) };
    const events: MinesEvent[] = [];
    const stream: Array<MinesEvent | { diagnostic: Diagnostic }> = [];
    const diagnostics: Diagnostic[] = [];
    const sink = {
      emit: (e: MinesEvent) => {
        events.push(e);
        stream.push(e);
      },
      diagnose: (d: Diagnostic) => {
        diagnostics.push(d);
        stream.push({ diagnostic: d });
      },
    };
    installBoard(w, board, sink);
    notifyRoundStart(w);
    for (const b of batches) {
      if (b && typeof b === 'object' && !Array.isArray(b) && (b as { next_round?: unknown }).next_round) {
        notifySettlementDone(w, 'same_board', sink);
        notifyRoundStart(w);
        continue;
      }
      if (!Array.isArray(b)) throw new ArbiterError('bad_request', 'every batch must be a list of intents');
      settleBatch(w, b, sink);
    }
    // EC9: A2's diagnostics are never dropped: on stderr always, in the stream on request
    for (const d of diagnostics) io.err(`mines: [${d.level}] ${d.category}: ${d.message}\n`);
    if (o.hash === true) io.out(hashText(canonicalJson(events)) + '\n');
    else for (const e of o.diagnostics === true ? stream : events) io.out(canonicalJson(e) + '\n');
    return 0;
  },
};

export const minesTools: RulesetTool[] = [generateTool, eventsTool];
