// The conformance checks must catch broken rulesets: each variant below breaks one promise of the
// contract, built by wrapping tictactoe, and the matching check has to report it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Ruleset } from '../../packages/engine/src/kernel/index.ts';
import {
  tictactoe,
  type TicTacToeAction,
  type TicTacToeState,
} from '../../packages/engine/src/rulesets/tictactoe/index.ts';
import { badConfigs, determinism, fuzzInput, randomGames, schemaConformance } from '../../src/runners/conformance.ts';
import { compileWithAjv } from '../support/ajv.ts';

type R = Ruleset<TicTacToeState, TicTacToeAction>;
const variant = (over: Partial<R>): R => ({ ...tictactoe, ...over });

test('a ruleset whose apply changes state the caller still holds is caught (no private copy)', () => {
  const broken = variant({ clone: (s) => s }); // "copy" that shares the board
  assert.match(randomGames(broken, { games: 2 }).join('\n'), /mutated its input state/);
});

test("a ruleset's own clone that drops or reorders a field is caught", () => {
  const dropping = variant({ clone: (s) => ({ ...tictactoe.clone!(s), turn: undefined as unknown as number }) });
  assert.match(randomGames(dropping, { games: 1 }).join('\n'), /clone\(\) differs from the state/);
  const reordering = variant({
    clone: (s) => {
      const { turn, ...rest } = tictactoe.clone!(s);
      return { ...rest, turn };
    },
  });
  assert.match(randomGames(reordering, { games: 1 }).join('\n'), /clone\(\) differs from the state/);
});

test('a view that leaks a declared secret is caught', () => {
  const broken = variant({
    secrets: (s, seat) => (seat === 1 ? [{ board: s.board }] : []),
    view: (s) => ({ board: s.board }),
  });
  assert.match(randomGames(broken, { games: 1 }).join('\n'), /view of seat 1 contains a secret/);
});

test('a validator that accepts off-menu input is caught by the fuzzer', () => {
  const broken = variant({
    validate: (_s, _seat, input) => ({
      ok: true,
      action: { type: 'mark', cell: Number((input as { cell?: unknown })?.cell) || 0 },
    }),
  });
  assert.ok(fuzzInput(broken, { runs: 100 }).length > 0);
});

test('a validator that throws is contained and refused, never a crash', () => {
  const broken = variant({
    validate: () => {
      throw new Error('boom');
    },
  });
  // the kernel turns the throw into a bad_request, so fuzzing finds no crash, but games cannot proceed
  assert.deepEqual(
    fuzzInput(broken, { runs: 20 }).filter((p) => /threw/.test(p)),
    [],
  );
  assert.match(randomGames(broken, { games: 1 }).join('\n'), /refused/);
});

test('a nondeterministic ruleset is caught', () => {
  let flip = 0;
  const broken = variant({
    apply(s, seat, action, events) {
      tictactoe.apply(s, seat, action, events);
      events.push({ type: 'noise', n: flip++ });
    },
  });
  assert.match(determinism(broken).join('\n'), /different event streams/);
});

test('a ruleset that never ends, or deadlocks, is caught', () => {
  const endless = variant({ outcome: () => null, pending: (s) => [{ seat: s.turn, kind: 'move' }] });
  assert.match(randomGames(endless, { games: 1, maxActions: 50 }).join('\n'), /empty menu|no end/);
  const stuck = variant({ pending: () => [] });
  assert.match(randomGames(stuck, { games: 1 }).join('\n'), /deadlock/);
});

test('state that is not plain JSON is caught', () => {
  const broken = variant({
    setup: (c, seed) => ({ ...tictactoe.setup(c, seed), when: new Date(0) }) as unknown as TicTacToeState,
  });
  assert.match(randomGames(broken, { games: 1 }).join('\n'), /not plain JSON/);
});

test('a setup that accepts any config is caught', () => {
  const broken = variant({ setup: (_c, seed) => tictactoe.setup({}, seed) });
  assert.match(badConfigs(broken).join('\n'), /setup accepted config/);
});

test('a seat that is not pending but has a menu is caught', () => {
  const broken = variant({ legal: (s) => tictactoe.legal(s, s.turn) });
  assert.match(randomGames(broken, { games: 1 }).join('\n'), /is not pending but has a menu/);
});

test('[SCHEMA-CONFORM] a menu element outside its declared family, an undeclared family and a family never offered are caught', () => {
  const declared = tictactoe.schemas!;
  // the menu offers a cell the declared family does not allow (cells are 0..8)
  const outside = variant({
    legal: (s, seat) => {
      const m = tictactoe.legal(s, seat);
      return m.actions.length ? { actions: [...m.actions, { type: 'mark', cell: 9 }] } : m;
    },
  });
  assert.match(
    schemaConformance(outside, compileWithAjv, { games: 1 }).join('\n'),
    /menu element \{"cell":9,"type":"mark"\} is outside its family "mark"/,
  );
  // a family the declaration does not name
  const undeclared = variant({
    legal: (s, seat) => {
      const m = tictactoe.legal(s, seat);
      return m.actions.length ? { actions: [...m.actions, { type: 'resign' } as unknown as TicTacToeAction] } : m;
    },
  });
  assert.match(schemaConformance(undeclared, compileWithAjv, { games: 1 }).join('\n'), /is of no declared family/);
  // a declared family no menu ever offers
  const unused = variant({
    schemas: { ...declared, actions: { ...declared.actions, resign: declared.actions.mark } },
  });
  assert.match(
    schemaConformance(unused, compileWithAjv, { games: 2 }).join('\n'),
    /declared family "resign" appeared on no menu/,
  );
  // and the shipped declaration passes
  assert.deepEqual(schemaConformance(tictactoe, compileWithAjv, { games: 2 }), []);
});
