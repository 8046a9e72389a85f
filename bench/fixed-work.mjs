// Reading what a fixed-work bench run leaves behind (bench/fixed-clock.mjs's marks, callgrind's
// dumps), shared by bench/before-after.mjs and its test.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * valgrind's arguments for a fixed-work run whose counter dumps go to OUT.N. `sparse` (the preload's
 * ARBITER_FIXED_CLOCK_TIMED_US with ARBITER_FIXED_CLOCK_INSTRUMENT=1): nothing is instrumented until
 * the preload turns it on for a timed part, so start-up and warm-up run several times faster.
 * @param {string} out @param {boolean} sparse @returns {string[]}
 */
export function callgrindArgs(out, sparse) {
  return [
    'valgrind',
    '--tool=callgrind',
    ...(sparse ? ['--instr-atstart=no'] : []),
    '--dump-before=uv_get_constrained_memory',
    `--callgrind-out-file=${out}`,
  ];
}

/**
 * The instructions of each [first, last] mark span, from the dumps the marks made.
 * @param {Mark[]} marks @param {number[]} dumps as readDumps returns them @param {Array<[number, number]>} spans
 * @returns {number[]}
 */
export function spanInstructions(marks, dumps, spans) {
  const at = dumpIndexes(marks);
  return spans.map(([s, e]) => {
    if (at[s] < 0 || at[e] < 0) throw new Error(`no callgrind dump at mark ${at[s] < 0 ? s : e}`);
    return instructionsBetween(dumps, at[s], at[e]);
  });
}

/** @typedef {{ kind: 'n' | 'a', cpuUs: number, dumped: boolean }} Mark */

/** @param {string} file @returns {Mark[]} */
export function readMarks(file) {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const [kind, cpu, dumped] = l.split(' ');
      return { kind: kind === 'n' ? 'n' : 'a', cpuUs: Number(cpu), dumped: dumped === '1' };
    });
}

/**
 * For each mark, the index of its callgrind dump among the dumps the marks made (-1: none there).
 * @param {Mark[]} marks @returns {number[]}
 */
export function dumpIndexes(marks) {
  let n = 0;
  return marks.map((m) => (m.dumped ? n++ : -1));
}

/**
 * Split the marks into groups that each start at a fresh reading ('n'); the timed part of a case is
 * its last group (a `measure` has two: warm-up, then timed). When one process ran several cases
 * (the filter `tictactoe/engine` also selects `…engine-checked`), the groups are shared out evenly in
 * the order the cases printed; an uneven share is an error rather than a guess.
 * @param {string[]} kinds @param {number} nCases @returns {Array<[number, number]>} per case [first, last] mark index
 */
export function timedSpans(kinds, nCases) {
  /** @type {Array<[number, number]>} */
  const groups = [];
  kinds.forEach((k, i) => {
    if (k === 'n') groups.push([i, i]);
    else if (groups.length > 0) groups[groups.length - 1][1] = i;
  });
  if (nCases === 0 || groups.length % nCases !== 0)
    throw new Error(`cannot share ${groups.length} timed groups among ${nCases} cases`);
  const per = groups.length / nCases;
  return Array.from({ length: nCases }, (_, c) => groups[(c + 1) * per - 1]);
}

/**
 * Callgrind's dumps `PREFIX.1` … `PREFIX.D` in order, as instruction counts, keeping the last
 * `nMarks` (Node's own start-up reads the constrained memory too, before any mark). Dump k holds
 * the instructions from dumping mark k-1 to dumping mark k (see dumpIndexes).
 * @param {string} dir @param {string} prefix @param {number} nMarks @returns {number[]}
 */
export function readDumps(dir, prefix, nMarks) {
  const re = new RegExp(`^${prefix}\\.(\\d+)$`);
  const dumps = readdirSync(dir)
    .map((f) => re.exec(f))
    .filter((m) => m !== null)
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((m) => {
      const total = /^totals: (\d+)/m.exec(readFileSync(join(dir, m[0]), 'utf8'));
      if (!total) throw new Error(`${m[0]}: no totals line`);
      return Number(total[1]);
    });
  if (dumps.length < nMarks) throw new Error(`${dumps.length} callgrind dumps for ${nMarks} marks`);
  return dumps.slice(dumps.length - nMarks);
}

/** Instructions from dump `s` to dump `e` (dumps as readDumps returns them). @param {number[]} dumps @param {number} s @param {number} e */
export function instructionsBetween(dumps, s, e) {
  let sum = 0;
  for (let k = s + 1; k <= e; k++) sum += dumps[k];
  return sum;
}
