// `arbiter explore` end to end: JSON report, exit codes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/arbiter.js', import.meta.url));

function run(...args: string[]) {
  return spawnSync(process.execPath, [BIN, 'explore', ...args], { encoding: 'utf8' });
}

test('explore tictactoe --json reports 5478 states, exhausted, no violations, exit 0', () => {
  const r = run('tictactoe', '--json');
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.states, 5478);
  assert.equal(report.complete, true);
  assert.deepEqual(report.violations, []);
  assert.equal(report.checks.transitions, false); // tictactoe has no checkTransition hook
});

test('explore exits 1 with the shortest trace when a broken duel variant is explored', () => {
  const r = run('duel', '--preset', 'ci', '--set', 'variant="handoff_resets_counts"', '--set', 'turns=2');
  assert.equal(r.status, 1);
  assert.match(r.stdout, /VIOLATION \(transition\) at depth 1/);
  assert.match(r.stdout, /TurnHandoff5: conjunct/);
  assert.match(r.stdout, /shortest trace:\n\s+1\. seat 0/);
});
