// mines-specific verbs: `arbiter mines generate` (the seeded A1-role generator with its
// inference-rate metric and no-guess mode) and `arbiter mines events` (run an intent list on a
// board and print the event stream or its hash: AC-19 across processes).

import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ArbiterError, canonicalJson, hashText } from '../../kernel/index.ts';
import { GenError, generate, parseBoardId, type GenParams } from '../../rulesets/mines/generator/generator.ts';
import { solveBoard } from '../../rulesets/mines/generator/solver.ts';
import type { Board } from '../../rulesets/mines/board/geometry.ts';
import { createA2, installBoard, settleBatch } from '../../rulesets/mines/board/engine.ts';
import type { MinesEvent } from '../../rulesets/mines/board/types.ts';
import { createLedger } from '../../rulesets/mines/ledger/ledger.ts';
import { economyTable } from '../../rulesets/mines/ledger/economy.ts';
import { notifyRoundStart, notifySettlementDone } from '../../rulesets/mines/orchestrator/orchestrator.ts';
import { FIXTURE_NAMES, fixture } from '../../rulesets/mines/fixtures.ts';

const int = (name: string) => (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new ArbiterError('bad_request', `--${name} must be an integer (got "${v}")`);
  return n;
};

/** The board as text: '*' mine, '0'-'8' digit, fog shown as 'f' after the digit column; spawn square in brackets. */
export function boardText(b: Board): string {
  const fog = new Set(b.variants.map(([c]) => c));
  const lines: string[] = [];
  for (let y = 0; y < b.h; y++) {
    let r = '';
    for (let x = 0; x < b.w; x++) {
      const i = y * b.w + x;
      const ch = b.mines[i] === '1' ? '*' : b.digits[i] === '0' ? '.' : b.digits[i];
      r += fog.has(i) ? `\x1b[7m${ch}\x1b[0m` : Math.abs(x - b.spawn[0]) <= 1 && Math.abs(y - b.spawn[1]) <= 1 ? `\x1b[4m${ch}\x1b[0m` : ch;
    }
    lines.push(r);
  }
  return lines.join('\n');
}

function boardFrom(opts: { id?: string; fixture?: string; width?: number; height?: number; mines?: number; fog?: number; spawn?: string; noGuess?: boolean }, seed: number): Board {
  try {
    if (opts.fixture) {
      if (!FIXTURE_NAMES.includes(opts.fixture)) throw new ArbiterError('not_found', `unknown fixture "${opts.fixture}" (known: ${FIXTURE_NAMES.join(', ')})`);
      return fixture(opts.fixture);
    }
    if (opts.id) {
      const { params, seed: s } = parseBoardId(opts.id);
      return generate(params, s);
    }
    let spawn: [number, number] | undefined;
    if (opts.spawn !== undefined) {
      const m = /^(\d+),(\d+)$/.exec(opts.spawn);
      if (!m) throw new ArbiterError('bad_request', '--spawn must be X,Y');
      spawn = [Number(m[1]), Number(m[2])];
    }
    const p: Partial<GenParams> = { width: opts.width ?? 16, height: opts.height ?? 16, mines: opts.mines ?? 40, fog: opts.fog ?? 0, spawn, no_guess: opts.noGuess ?? false };
    return generate(p, seed);
  } catch (e) {
    if (e instanceof GenError) throw new ArbiterError('bad_config', e.message);
    throw e;
  }
}

export function register(program: Command): void {
  const mines = program.command('mines').description('minesweeper (mines ruleset) tools: board generator, event runs');
  mines
    .command('generate')
    .description('generate boards from (parameters, seed); print id, inference rate and timing (use --id to reproduce one)')
    .option('--width <n>', 'columns (4..2000)', int('width'))
    .option('--height <n>', 'rows (4..2000)', int('height'))
    .option('--mines <n>', 'mine count', int('mines'))
    .option('--fog <n>', 'fog cells (safe, non-zero, outside the spawn square and R0)', int('fog'))
    .option('--spawn <x,y>', 'centre of the 3x3 spawn square (default: the board centre)')
    .option('--no-guess', 'only emit boards the deduction solver clears from R0 without a guess')
    .option('--seed <n>', 'seed of the first board', int('seed'), 1)
    .option('--count <n>', 'boards to generate (seeds seed, seed+1, ...)', int('count'), 1)
    .option('--id <id>', 'reproduce the board with this id')
    .option('--show', 'print the board (mines *, digits, fog inverted, spawn underlined)')
    .option('--json', 'print boards as JSON lines (the board product plus metrics)')
    .action((opts: { width?: number; height?: number; mines?: number; fog?: number; spawn?: string; guess?: boolean; seed: number; count: number; id?: string; show?: boolean; json?: boolean }) => {
      const noGuess = opts.guess === false;
      let cleared = 0;
      let rateSum = 0;
      let genMs = 0;
      const n = opts.id ? 1 : Math.max(1, opts.count);
      for (let k = 0; k < n; k++) {
        const t0 = process.cpuUsage();
        const b = boardFrom({ ...opts, noGuess }, opts.seed + k);
        const d = process.cpuUsage(t0);
        const ms = (d.user + d.system) / 1000;
        genMs += ms;
        const r = solveBoard(b);
        if (r.cleared) cleared++;
        rateSum += r.rate;
        if (opts.json) process.stdout.write(JSON.stringify({ board: b, r0: r.r0, safe: r.safe, inference_rate: r.rate, cleared_without_guess: r.cleared, cpu_ms: ms }) + '\n');
        else {
          process.stdout.write(`${b.id}  R0 ${r.r0}/${r.safe} safe  inference rate ${(r.rate * 100).toFixed(1)}%${r.cleared ? ' (no guess needed)' : ''}  ${ms.toFixed(2)} ms\n`);
          if (opts.show) process.stdout.write(boardText(b) + '\n');
        }
      }
      if (!opts.json && n > 1) {
        process.stdout.write(`${n} boards: ${cleared} cleared without a guess (${((cleared / n) * 100).toFixed(1)}%), mean inference rate ${((rateSum / n) * 100).toFixed(1)}%, ${(genMs / n).toFixed(2)} ms CPU per board\n`);
      }
    });
  mines
    .command('events')
    .description('install a board, run an intent list (JSON: a list of batches, each a list of intents) through settle_batch, print the events or their hash')
    .requiredOption('--intents <file>', 'JSON file: [[{"type":"dig","cell":[x,y]}, ...], ...]; a batch {"next_round":true} settles and opens the next round')
    .option('--fixture <name>', 'a registered fixture board')
    .option('--id <id>', 'a generator board id')
    .option('--hash', 'print only the hash of the canonical event stream')
    .action((opts: { intents: string; fixture?: string; id?: string; hash?: boolean }) => {
      if (!opts.fixture && !opts.id) throw new ArbiterError('bad_request', 'give --fixture NAME or --id BOARD_ID');
      const board = boardFrom(opts, 0);
      let batches: unknown;
      try {
        batches = JSON.parse(readFileSync(opts.intents, 'utf8'));
      } catch (e) {
        throw new ArbiterError('bad_request', `cannot read ${opts.intents}: ${(e as Error).message}`);
      }
      if (!Array.isArray(batches)) throw new ArbiterError('bad_request', 'the intents file must hold a list of batches');
      const w = { a2: createA2(), a3: createLedger(economyTable({})) };
      const events: MinesEvent[] = [];
      const sink = { emit: (e: MinesEvent) => events.push(e), diagnose: () => {} };
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
      if (opts.hash) process.stdout.write(hashText(canonicalJson(events)) + '\n');
      else for (const e of events) process.stdout.write(canonicalJson(e) + '\n');
    });
}
