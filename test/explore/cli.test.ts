// `arbiter explore` end to end (in-process): JSON report, exit codes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli } from '../support/cli.ts';

async function run(...args: string[]) {
  const r = await cli(['explore', ...args]);
  return { status: r.code, stdout: r.out, stderr: r.err };
}

test('explore tictactoe --json reports 5478 states, exhausted, no violations, exit 0', async () => {
  const r = await run('tictactoe', '--json');
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.states, 5478);
  assert.equal(report.complete, true);
  assert.deepEqual(report.violations, []);
  assert.equal(report.checks.transitions, false); // tictactoe has no checkTransition hook
});

test('explore exits 1 with the shortest trace when a broken duel variant is explored', async () => {
  const r = await run('duel', '--preset', 'ci', '--set', 'variant="handoff_resets_counts"', '--set', 'turns=2');
  assert.equal(r.status, 1);
  assert.match(r.stdout, /VIOLATION \(transition\) at depth 1/);
  assert.match(r.stdout, /TurnHandoff5: conjunct/);
  assert.match(r.stdout, /shortest trace:\n\s+1\. seat 0/);
});
