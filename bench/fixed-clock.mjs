// Preloaded (`node --import`) into `arbiter bench` by bench/before-after.mjs's fixed-work modes. It
// replaces process.cpuUsage with a clock that advances a fixed number of microseconds per call, so a
// case's "run for N ms of CPU" loop (bench/types.ts `measure`, the explorer, the no-guess generator)
// does the same number of units on every run, whatever the machine does. It works on any checkout's
// bench, old or new, because it changes nothing but the clock they all read.
//
// Each call is a mark: its kind ('n' = a fresh reading, 'a' = a reading against an earlier one),
// the real CPU microseconds at that moment and whether callgrind dumped there (1/0) go to
// ARBITER_FIXED_CLOCK_MARKS at exit, one per line. The timed part of a case is from its last 'n' to
// its last 'a'. Before a mark the preload calls process.constrainedMemory(), a native call nothing
// else makes in a bench run, so callgrind started with --dump-before=uv_get_constrained_memory
// writes one counter dump there: the instructions between two dumps are free of start-up,
// compilation of the CLI and the case's warm-up.
//
// Settings (environment):
//   ARBITER_FIXED_CLOCK_US     microseconds per reading; a comma list gives each group of readings
//                              (a fresh reading and those against it) its own, in turn: "50,3125"
//                              = `measure`'s warm-up at 50 µs a reading, its timed part at 3125.
//   ARBITER_FIXED_CLOCK_TIMED_US  (optional) the groups alternate warm-up, timed (the shape of
//                              `measure`) and a timed group ends at the reading that reaches this
//                              many fake µs (the case's budget). Then only the two ends of each timed
//                              group are dumps, a full GC (node --expose-gc) runs before the timed
//                              part so garbage of the warm-up is not collected inside it, and with
//                              ARBITER_FIXED_CLOCK_INSTRUMENT=1 (valgrind --instr-atstart=no)
//                              callgrind instruments only the timed parts (`callgrind_control -i`).
//                              Warm-up of tens of thousands of games then runs at valgrind's
//                              uninstrumented speed and writes no dump files.
//   ARBITER_FIXED_CLOCK_INSTRUMENT=1 alone (valgrind --instr-atstart=no): every mark is a dump and
//                              callgrind instruments from the first mark on, not during start-up.
//   ARBITER_FIXED_CLOCK_MARKS  where the marks go.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const ticksUs = String(process.env.ARBITER_FIXED_CLOCK_US ?? '')
  .split(',')
  .map(Number);
const marksFile = process.env.ARBITER_FIXED_CLOCK_MARKS;
if (!ticksUs.every((t) => t > 0) || !marksFile)
  throw new Error('fixed-clock: set ARBITER_FIXED_CLOCK_US (> 0, or a comma list) and ARBITER_FIXED_CLOCK_MARKS');
const timedUs = Number(process.env.ARBITER_FIXED_CLOCK_TIMED_US ?? 0);
const instrument = process.env.ARBITER_FIXED_CLOCK_INSTRUMENT === '1';

const realCpu = process.cpuUsage.bind(process);
const dumpMark = process.constrainedMemory.bind(process);
/** @type {(() => void) | undefined} */
const fullGc = /** @type {any} */ (globalThis).gc;
/** @param {'on' | 'off'} state */
const callgrind = (state) => {
  const r = spawnSync('callgrind_control', ['-i', state, String(process.pid)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`fixed-clock: callgrind_control -i ${state} failed: ${r.stderr}`);
};
/** @type {string[]} */
const marks = [];
let fakeUs = 0;
let group = -1;
let tickUs = ticksUs[0];

/** @param {NodeJS.CpuUsage} [prev] @returns {NodeJS.CpuUsage} */
process.cpuUsage = (prev) => {
  if (!prev) {
    group++;
    tickUs = ticksUs[group % ticksUs.length];
  }
  // sparse: only a timed group's first reading and the one that ends it are dumps
  const timedGroup = timedUs > 0 && group % 2 === 1;
  const opens = timedGroup && !prev;
  const closes = timedGroup && prev !== undefined && fakeUs - prev.user - prev.system + tickUs >= timedUs;
  const dump = timedUs === 0 || opens || closes;
  // dense: every mark is a dump; instrumenting starts at the first (start-up is not counted anyway)
  if (instrument && timedUs === 0 && marks.length === 0) callgrind('on');
  if (opens) {
    // the warm-up's garbage is collected here, not inside the timed part: a major GC falling in the
    // timed part of one side only (the heaps differ by build) decided a comparison by ~15%
    fullGc?.();
    if (instrument) callgrind('on');
  }
  if (dump) dumpMark();
  const r = realCpu();
  marks.push(`${prev ? 'a' : 'n'} ${r.user + r.system} ${dump ? 1 : 0}`);
  if (closes && instrument) callgrind('off');
  fakeUs += tickUs;
  return prev ? { user: fakeUs - prev.user - prev.system, system: 0 } : { user: fakeUs, system: 0 };
};
process.on('exit', () => writeFileSync(marksFile, `${marks.join('\n')}\n`));
