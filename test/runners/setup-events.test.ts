import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GameEvent } from '../../packages/engine/src/kernel/index.ts';
import { minesPackage } from '../../packages/engine/src/rulesets/mines/index.ts';
import { makeAgents } from '../../src/agents/resolve.ts';
import { playFast, runMatch } from '../../packages/engine/src/engine/run-match.ts';
import { hashEvents, logLines } from '../../packages/engine/src/engine/log.ts';
import { parseLog } from '../../src/runners/logfile.ts';
import { replayLog } from '../../src/runners/replay.ts';

test('setup events (mines initial expansion) lead the log and the hash, and replay checks them', async () => {
  const rs = minesPackage.ruleset;
  const m = await runMatch(rs, makeAgents(minesPackage, 'random', 1), { seed: 4, maxSubmissions: 30 });
  const setup = m.header.setup_events as GameEvent[];
  assert.ok(setup.length > 0 && setup.every((e) => e.type === 'cell_revealed'));
  assert.deepEqual(m.events.slice(0, setup.length), setup);
  const f = playFast(rs, makeAgents(minesPackage, 'random', 1), 4, {}, { keepEvents: true, maxActions: 30 });
  assert.equal(hashEvents(f.events!), m.footer.hash);
  const lines = logLines(m);
  assert.equal(replayLog(rs, parseLog(lines.join('\n'))).ok, true);
  const header = JSON.parse(lines[0]);
  header.setup_events[0].digit = 9;
  const r = replayLog(rs, parseLog([JSON.stringify(header), ...lines.slice(1)].join('\n')));
  assert.equal(r.ok, false);
  assert.equal(r.divergence!.seq, 0);
  assert.equal(r.divergence!.what, 'setup event 0');
});
