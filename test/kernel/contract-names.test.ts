// [CONTRACT-NAMES] One name per contract member across the shipped rulesets: the function behind a
// Ruleset member carries the member's own name (`setup`, `apply`, `outcome` ...), so a reader who
// knows the contract finds each part by grep, whichever ruleset it is. A function's `name` is the
// name it was declared with (or the property it was written under, for an inline arrow), so an
// assembly like `apply: applyDecision` shows up here.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentContext } from '../../packages/engine/src/engine/context.ts';
import { SeededRandom } from '../../packages/engine/src/kernel/index.ts';
import { PACKAGES } from '../../packages/engine/src/registry.ts';
import { bncPackage, type BncView } from '../../packages/engine/src/rulesets/bnc/index.ts';
import { duelPackage, type DuelView } from '../../packages/engine/src/rulesets/duel/index.ts';
import { groundPackage, type GroundView } from '../../packages/engine/src/rulesets/ground/index.ts';
import { minesPackage, type MinesView } from '../../packages/engine/src/rulesets/mines/index.ts';
import { tictactoePackage, type TicTacToeView } from '../../packages/engine/src/rulesets/tictactoe/index.ts';

test('[CONTRACT-NAMES] every ruleset member is implemented by a function of the same name', () => {
  const misnamed: string[] = [];
  for (const pkg of PACKAGES) {
    for (const rs of [pkg.ruleset, ...(pkg.earlier ?? [])]) {
      for (const [member, value] of Object.entries(rs)) {
        if (typeof value === 'function' && value.name !== member) misnamed.push(`${rs.id}.${member} = ${value.name}`);
      }
    }
  }
  assert.deepEqual(misnamed, []);
});

// [TYPED-VIEW] Each ruleset's `view` returns its exported view type, not bare Json: the lines below
// read fields without a cast, so `tsc` refuses them if a ruleset's view goes back to Json, and the
// assertions check that the declared fields are really there.
test('[TYPED-VIEW] every ruleset view is read through its exported type, no cast', () => {
  const t = tictactoePackage.ruleset;
  const tv: TicTacToeView = t.view(t.setup({}, 1), 0);
  assert.equal(tv.board.length, 9);

  const m = minesPackage.ruleset;
  const mv: MinesView = m.view(m.setup(m.defaultConfig, 1), 0);
  assert.equal(mv.rows.length, mv.h);

  const g = groundPackage.ruleset;
  const gs = g.setup(g.defaultConfig, 1);
  const gv: GroundView = g.view(gs, 1);
  assert.equal(gv.players.length, gs.n);
  assert.ok(gv.players[1].hand !== undefined && gv.players[0].hand === undefined, 'a seat sees its own hand only');

  const d = duelPackage.ruleset;
  const dv: DuelView = d.view(d.setup(d.defaultConfig, 1), 0);
  assert.equal(dv.seats.length, 2);

  const b = bncPackage.ruleset;
  const bs = b.setup(b.defaultConfig, 1);
  const seatView: BncView = b.view(bs, 2);
  const spectator: BncView = b.view(bs, null);
  assert.equal(seatView.role === 'contestant' ? seatView.me.zone : -1, bs.contestants[2].zone);
  assert.equal(spectator.role === 'spectator' ? spectator.contestants.length : -1, bs.contestants.length);
});

// [TYPED-AGENT-VIEW] The context an agent chooses in carries its ruleset's view type, so the
// shipped agents read their view without a cast: the field reads below fail `tsc` if
// `AgentContext.view` goes back to bare Json, and the context's view is the seat's own.
test('[TYPED-AGENT-VIEW] an agent context carries the ruleset view type and the seat view', () => {
  const g = groundPackage.ruleset;
  const gs = g.setup(g.defaultConfig, 1);
  const [p] = g.pending(gs);
  const ctx = agentContext(g, gs, p.seat, p.kind, g.legal(gs, p.seat), new SeededRandom(1));
  const players: GroundView['players'] = ctx.view.players;
  assert.equal(players.length, gs.n);
  assert.ok(players[p.seat].hand !== undefined, 'the context holds the asked seat’s view');

  const b = bncPackage.ruleset;
  const bs = b.setup(b.defaultConfig, 1);
  const bctx = agentContext(b, bs, 0, 'turn', b.legal(bs, 0), new SeededRandom(1));
  assert.equal(bctx.view.role, 'contestant');
  assert.equal(bctx.ruleset.id, 'bnc');
});
