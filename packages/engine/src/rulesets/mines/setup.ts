// setup: parse the config, install the first board (its initial expansion is the setup events)
// and open round 1. The B1 role's board source lives here too: a fixture is re-installed as is,
// generated boards come from the state's seeded stream, one per new board.

import { ArbiterError, checkSeed, cloneJson, createRng, nextU32, type GameEvent } from '../../kernel/index.ts';
import { createA2, installBoard } from './board/engine.ts';
import type { Board } from './board/geometry.ts';
import type { Diagnostic, Sink } from './board/types.ts';
import { parseConfig } from './config.ts';
import { generate, GenError } from './generator/generator.ts';
import { createLedger } from './ledger/ledger.ts';
import { notifyRoundStart } from './orchestrator/orchestrator.ts';
import type { MinesState } from './state.ts';

/** A sink that appends A2's events to the caller's list and keeps every diagnostic. */
export function collectingSink(events: GameEvent[] | null, diagnostics: Diagnostic[]): Sink {
  return {
    emit: (e) => {
      if (events) events.push(e);
    },
    diagnose: (d) => {
      diagnostics.push(d);
    },
  };
}

export function nextBoard(s: MinesState): Board {
  if (s.run.fixture !== null) return cloneJson(s.run.fixture);
  if (s.run.gen === null) throw new ArbiterError('bad_config', 'no board source');
  const seed = nextU32(s.rng, 'boards');
  try {
    return generate(s.run.gen, seed);
  } catch (e) {
    if (e instanceof GenError) throw new ArbiterError('bad_config', e.message);
    throw e;
  }
}

export function setup(config: unknown, seed: number, events?: GameEvent[]): MinesState {
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
      diagnostics: [],
      mines_dug: 0,
    },
    rng: createRng(seed),
  };
  const diagnostics: Diagnostic[] = [];
  const r = installBoard(s, nextBoard(s), collectingSink(events ?? null, diagnostics));
  if (!r.accepted)
    throw new ArbiterError('bad_config', `the board cannot be installed: ${r.category}`, {
      category: r.category,
      diagnostics,
    });
  notifyRoundStart(s);
  return s;
}
