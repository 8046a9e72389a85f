import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArbiterError } from '../../packages/engine/src/kernel/index.ts';
import { tictactoe, tictactoePackage } from '../../packages/engine/src/rulesets/tictactoe/index.ts';
import { makeAgents } from '../../src/agents/resolve.ts';
import { playFast, runMatch } from '../../packages/engine/src/engine/run-match.ts';
import { logLines, hashEvents } from '../../packages/engine/src/engine/log.ts';
import { parseLog } from '../../src/runners/logfile.ts';
import { replayLog } from '../../src/runners/replay.ts';

async function record(seed: number) {
  const m = await runMatch(tictactoe, makeAgents(tictactoePackage, 'random', 2), { seed });
  return logLines(m).join('\n') + '\n';
}

test('a recorded log replays and verifies', async () => {
  const text = await record(3);
  const r = replayLog(tictactoe, parseLog(text));
  assert.equal(r.ok, true);
  assert.equal(r.divergence, null);
});

test('the match runner and the fast simulation loop play the same game', async () => {
  for (let seed = 1; seed <= 30; seed++) {
    const m = await runMatch(tictactoe, makeAgents(tictactoePackage, 'random', 2), { seed });
    const f = playFast(tictactoe, makeAgents(tictactoePackage, 'random', 2), seed, {}, { keepEvents: true });
    assert.equal(hashEvents(f.events!), m.footer.hash, `seed ${seed}`);
  }
});

test('a tampered log fails at the first divergence with what differs', async () => {
  const lines = (await record(5)).trim().split('\n');
  const entry = JSON.parse(lines[2]);
  entry.events[0].cell = (entry.events[0].cell + 1) % 9;
  const tampered = [...lines.slice(0, 2), JSON.stringify(entry), ...lines.slice(3)].join('\n');
  const r = replayLog(tictactoe, parseLog(tampered));
  assert.equal(r.ok, false);
  assert.equal(r.divergence!.seq, 2);
  assert.match(r.divergence!.what, /^event 0$/);

  // a changed input makes the replay itself differ
  const entry2 = JSON.parse(lines[1]);
  entry2.input.cell = (entry2.input.cell + 1) % 9;
  const r2 = replayLog(tictactoe, parseLog([lines[0], JSON.stringify(entry2), ...lines.slice(2)].join('\n')));
  assert.equal(r2.ok, false);

  // a changed final hash is caught at the end
  const footer = JSON.parse(lines[lines.length - 1]);
  footer.hash = '0000000000000000';
  const r3 = replayLog(tictactoe, parseLog([...lines.slice(0, -1), JSON.stringify(footer)].join('\n')));
  assert.equal(r3.ok, false);
  assert.equal(r3.divergence!.seq, 'end');
});

test('corrupt logs are refused with corrupt_log', () => {
  for (const bad of [
    '',
    'not json',
    '[1]',
    '{"ruleset":"tictactoe"}',
    '{"ruleset":"tictactoe","version":"tictactoe-1","seed":1}\n{"seq":2,"seat":0,"input":{},"result":"accepted","events":[]}',
    '{"ruleset":"tictactoe","version":"tictactoe-1","seed":1}\n{"seq":1}',
  ]) {
    assert.throws(
      () => parseLog(bad),
      (e: unknown) => e instanceof ArbiterError && e.code === 'corrupt_log',
      bad,
    );
  }
});
