// [TEST-RUN-LEFTOVERS] What a test run leaves behind goes with it: the runner gives the tests a TMPDIR
// inside its scratch folder and, at the end, stops every process still running there (naming each)
// and removes the folder. Once a throw-away PostgreSQL cluster was found still running after a run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearLeftovers, processesUsing } from '../../scripts/test-leftovers.mjs';

test('[TEST-RUN-LEFTOVERS] processes left in the tests’ temporary folder are stopped and named, and the folder is removed', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-leftovers-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cluster = join(dir, 'arbiter-pg-x');
  mkdirSync(cluster);
  // one names the folder on its command line (as postgres -D does) and ignores SIGTERM, so the
  // sweep's SIGKILL step is exercised too; one only works in the folder. Each says when it is set.
  const ready = 'console.log("ready"); setInterval(() => {}, 1000);';
  const named = spawn(process.execPath, ['-e', `process.on("SIGTERM", () => {}); ${ready}`, join(cluster, 'data')]);
  const cwd = spawn(process.execPath, ['-e', ready], { cwd: cluster });
  const outside = spawn(process.execPath, ['-e', ready]);
  t.after(() => {
    for (const p of [named, cwd, outside]) p.kill('SIGKILL');
  });
  const started = (p: typeof named) => new Promise((ok) => p.stdout.once('data', ok));
  await Promise.all([named, cwd, outside].map(started));
  if (!existsSync('/proc/self/cmdline')) {
    t.skip('no /proc here: the sweep finds nothing to stop');
    return;
  }
  const found = processesUsing(dir).map((p) => p.pid);
  assert.deepEqual(found.sort(), [named.pid, cwd.pid].sort(), 'the two inside, not the one outside');
  const lines: string[] = [];
  const exited = (p: typeof named) =>
    new Promise((ok) => (p.exitCode !== null || p.signalCode !== null ? ok(null) : p.once('exit', ok)));
  const stopped = await clearLeftovers(dir, (line) => lines.push(line));
  await Promise.all([exited(named), exited(cwd)]);
  assert.deepEqual(stopped.map((p) => p.pid).sort(), [named.pid, cwd.pid].sort());
  assert.equal(named.signalCode, 'SIGKILL', 'the one that ignored SIGTERM was killed');
  assert.equal(cwd.signalCode, 'SIGTERM');
  assert.equal(lines.length, 2);
  assert.match(lines[0], /left a process running/);
  assert.equal(existsSync(dir), false, 'the folder is gone');
  assert.equal(outside.exitCode ?? outside.signalCode, null, 'a process outside the folder keeps running');
});
