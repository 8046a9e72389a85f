// bench/before-after.mjs's fixed-work modes: the marks bench/fixed-clock.mjs leaves are cut into each
// case's timed part, and under callgrind that part's instruction count is the same run after run
// (what makes `--mode instructions` a verdict on a noisy machine) and grows with the work done.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  callgrindArgs,
  dumpIndexes,
  instructionsBetween,
  readDumps,
  readMarks,
  spanInstructions,
  timedSpans,
} from '../../bench/fixed-work.mjs';

const FIXED_CLOCK = join(import.meta.dirname, '../../bench/fixed-clock.mjs');
const LOOP = join(import.meta.dirname, 'fixtures/fixed-loop.mjs');

test('[BENCH-FIXED-SPANS] the timed part of each case is its last group of readings', () => {
  // one measure: warm-up group (marks 0-2), timed group (marks 3-5)
  assert.deepEqual(timedSpans([...'naanaa'], 1), [[3, 5]]);
  // two cases from one filter: two groups each, in print order
  assert.deepEqual(timedSpans([...'naanaanaaanaaaa'], 2), [
    [3, 5],
    [10, 14],
  ]);
  // the explorer: one group
  assert.deepEqual(timedSpans([...'na'], 1), [[0, 1]]);
  assert.throws(() => timedSpans([...'naanaana'], 2), /cannot share 3 timed groups among 2 cases/);
  assert.deepEqual(instructionsBetween([100, 1, 2, 3], 1, 3), 5);
  // sparse dumps (only the ends of a timed part): the span's marks are read through their dumps
  const marks = [...'naana'].map((kind, i) => ({ kind: kind as 'n' | 'a', cpuUs: i, dumped: i >= 3 }));
  assert.deepEqual(dumpIndexes(marks), [-1, -1, -1, 0, 1]);
  assert.deepEqual(spanInstructions(marks, [7, 40], [[3, 4]]), [40]);
  assert.throws(() => spanInstructions(marks, [7, 40], [[2, 4]]), /no callgrind dump at mark 2/);
});

/**
 * Instructions in the fixture's timed group, counted by callgrind as before-after.mjs counts the
 * tic-tac-toe cases: nothing instrumented until the timed part, dumps only at its two ends.
 */
/**
 * Warm-up units before the timed group. The full GC that opens the timed part drops V8's
 * on-stack-replacement code, so the fixture's loop is compiled again inside it (a few million
 * instructions, as `measure`'s timed loop is); a unit is big enough that this stays a few per cent.
 */
const WARM_UP = 10;

function countTimed(units: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'fixed-work-'));
  const marks = join(dir, 'marks');
  const cmd = [
    ...callgrindArgs(join(dir, 'cg'), true),
    process.execPath,
    '--predictable',
    '--expose-gc',
    '--import',
    FIXED_CLOCK,
    LOOP,
    String(units),
    String(WARM_UP),
  ];
  return new Promise((resolve, reject) => {
    const p = spawn(cmd[0], cmd.slice(1), {
      env: {
        ...process.env,
        ARBITER_FIXED_CLOCK_US: '1000',
        ARBITER_FIXED_CLOCK_MARKS: marks,
        ARBITER_FIXED_CLOCK_TIMED_US: String(units * 1000),
        ARBITER_FIXED_CLOCK_INSTRUMENT: '1',
      },
      stdio: 'ignore',
    });
    p.on('close', (code) => {
      try {
        assert.equal(code, 0, 'valgrind run failed');
        const m = readMarks(marks);
        assert.equal(m.length, WARM_UP + 1 + 1 + units);
        // the timed group's first and last readings, nothing else
        assert.deepEqual(
          m.flatMap((x, i) => (x.dumped ? [i] : [])),
          [WARM_UP + 1, WARM_UP + 1 + units],
        );
        const spans = timedSpans(
          m.map((x) => x.kind),
          1,
        );
        resolve(spanInstructions(m, readDumps(dir, 'cg', 2), spans)[0]);
      } catch (err) {
        reject(err);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

const hasValgrind = spawnSync('valgrind', ['--version']).status === 0;

test('[BENCH-FIXED-COUNT] a fixed-work timed part counts the same instructions twice, and twice the work counts about twice', {
  skip: hasValgrind ? false : 'valgrind not installed',
  timeout: 300_000,
}, async () => {
  const [a, b, double] = await Promise.all([countTimed(20), countTimed(20), countTimed(40)]);
  assert.ok(Math.abs(a - b) / a < 0.01, `two counts of the same work: ${a} and ${b}`);
  // start-up (hundreds of millions of instructions) is left out: 20 more units add about as much as
  // the first 20 took
  const ratio = double / a;
  assert.ok(ratio > 1.8 && ratio < 2.2, `40 units / 20 units = ${ratio.toFixed(3)} (${double} / ${a})`);
});
