// Preloaded (`node --import`) into `arbiter bench` by bench/before-after.mjs's fixed-work modes. It
// replaces process.cpuUsage with a clock that advances ARBITER_FIXED_CLOCK_US microseconds per call,
// so a case's "run for N ms of CPU" loop (bench/types.ts `measure`, the explorer, the no-guess
// generator) does the same number of units on every run, whatever the machine does. It works on any
// checkout's bench, old or new, because it changes nothing but the clock they all read.
//
// Each call is a mark: its kind ('n' = a fresh reading, 'a' = a reading against an earlier one) and
// the real CPU microseconds at that moment go to ARBITER_FIXED_CLOCK_MARKS at exit, one per line.
// The timed part of a case is from its last 'n' to its last 'a'. Before each mark the preload calls
// process.constrainedMemory(), a native call nothing else makes in a bench run, so callgrind started
// with --dump-before=uv_get_constrained_memory writes one counter dump per mark: the instructions
// between two marks, free of start-up, compilation of the CLI and the case's warm-up.
import { writeFileSync } from 'node:fs';

const tickUs = Number(process.env.ARBITER_FIXED_CLOCK_US);
const marksFile = process.env.ARBITER_FIXED_CLOCK_MARKS;
if (!(tickUs > 0) || !marksFile)
  throw new Error('fixed-clock: set ARBITER_FIXED_CLOCK_US (> 0) and ARBITER_FIXED_CLOCK_MARKS');

const realCpu = process.cpuUsage.bind(process);
const dumpMark = process.constrainedMemory.bind(process);
/** @type {string[]} */
const marks = [];
let fakeUs = 0;

/** @param {NodeJS.CpuUsage} [prev] @returns {NodeJS.CpuUsage} */
process.cpuUsage = (prev) => {
  dumpMark();
  const r = realCpu();
  marks.push(`${prev ? 'a' : 'n'} ${r.user + r.system}`);
  fakeUs += tickUs;
  return prev ? { user: fakeUs - prev.user - prev.system, system: 0 } : { user: fakeUs, system: 0 };
};
process.on('exit', () => writeFileSync(marksFile, `${marks.join('\n')}\n`));
