// The generic subprocess agent, driven with a tiny node script as the program.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { SeededRandom, act, type AgentContext } from '../../src/kernel/index.ts';
import { subprocessAgent, subprocessAgentFactory } from '../../src/agents/subprocess.ts';
import { bnc } from '../../src/rulesets/bnc/index.ts';

const BOT = fileURLToPath(new URL('./fixtures/bot.mjs', import.meta.url));

function ctx(seat = 0): AgentContext {
  const state = bnc.setup({}, 5);
  return { ruleset: bnc, seat, kind: 'turn', view: bnc.view(state, seat), menu: bnc.legal(state, seat), state, random: new SeededRandom(1) };
}

test('[BNC-U11] a program answering {"action":..} from the menu plays that action', async () => {
  const agent = subprocessAgent(`node ${BOT} last`);
  try {
    const c = ctx();
    const a = await agent.choose(c);
    assert.deepEqual(a, c.menu.actions[c.menu.actions.length - 1]);
    assert.equal(act(bnc, c.state, 0, a).ok, true);
    // a second decision on the same process works too
    assert.deepEqual(await agent.choose(c), c.menu.actions[c.menu.actions.length - 1]);
    assert.deepEqual(agent.failures, []);
  } finally {
    agent.close();
  }
});

test('[BNC-U11] a bare action object is accepted as the answer', async () => {
  const agent = subprocessAgent(`node ${BOT} bare`);
  try {
    assert.deepEqual(await agent.choose(ctx()), { type: 'wait' });
    assert.equal(agent.failures.length, 0);
  } finally {
    agent.close();
  }
});

test('[BNC-U11] timeout, junk, refused and exited programs fall back to the first menu action (wait) and are recorded', async () => {
  const cases: [string, RegExp][] = [
    ['silent', /no answer within 300 ms/],
    ['junk', /not JSON/],
    ['illegal', /refused \(illegal\)/],
    ['exit', /exited/],
  ];
  for (const [mode, why] of cases) {
    // only the silent program needs the short deadline; the others get time for node to start on a busy machine
    const agent = subprocessAgent(`node ${BOT} ${mode}`, { timeoutMs: mode === 'silent' ? 300 : 10_000 });
    try {
      if (mode === 'exit') await new Promise((r) => setTimeout(r, 300));
      const a = await agent.choose(ctx());
      assert.deepEqual(a, { type: 'wait' }, mode);
      assert.equal(agent.failures.length, 1, mode);
      assert.match(agent.failures[0].reason, why, mode);
    } finally {
      agent.close();
    }
  }
});

test('[BNC-U11] the cmd: factory needs a command line', () => {
  assert.throws(() => subprocessAgentFactory({ args: '  ' }), /command line/);
});
