// Before/after comparison for a refactor: runs `arbiter bench --json` from two checkouts, alternating
// (before, after, before, after, ...) so machine noise falls on both sides, and prints per case the
// median of each side and the after/before speed ratio with its range (above 1 = after is faster).
//
// usage: node bench/before-after.mjs BEFORE_DIR AFTER_DIR [--mode time|fixed|instructions]
//          [--runs 3] [--budget 1000] [--jobs 1] [--keep DIR] [filter ...]
//
// Modes (docs/bench.md says when to use which):
//   time          each case runs for --budget ms of CPU; the figure is actions per CPU second. This is
//                 what `arbiter bench` reports, and on a shared VM it swings (±40% run to run seen).
//   fixed         bench/fixed-clock.mjs replaces the CPU clock with a counter, so every run of a case
//                 does the same units of work (warm-up included); the figure is real CPU nanoseconds
//                 per action over the timed units only (start-up and warm-up left out).
//   instructions  as `fixed`, under `valgrind --tool=callgrind` with `node --predictable` (one
//                 thread, so V8's choices do not depend on timing): the figure is machine
//                 instructions per action in the timed units. It does not depend on the machine's
//                 load (repeatable to ~0.1%), but it is work, not time: cache misses, GC pauses on
//                 other threads and the like are not in it. Needs valgrind; ~50× slower than native.
// Each side runs its own `bin/arbiter.js` as it ships (a build or the sources through tsx).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callgrindArgs, readDumps, readMarks, spanInstructions, timedSpans } from './fixed-work.mjs';

const args = process.argv.slice(2);
/** @param {string} name @param {string} dflt @returns {string} */
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i < 0 ? dflt : args.splice(i, 2)[1];
};
const mode = opt('--mode', 'time');
const runs = Number(opt('--runs', '3'));
const budget = opt('--budget', '');
const jobs = Number(opt('--jobs', '1'));
const keep = opt('--keep', '');
const [beforeDir, afterDir, ...filters] = args;
if (!beforeDir || !afterDir || !['time', 'fixed', 'instructions'].includes(mode) || !(runs >= 1) || !(jobs >= 1)) {
  console.error(
    'usage: node bench/before-after.mjs BEFORE_DIR AFTER_DIR [--mode time|fixed|instructions] [--runs N] [--budget MS] [--jobs N] [--keep DIR] [filter ...]',
  );
  process.exit(2);
}
const FIXED_CLOCK = new URL('./fixed-clock.mjs', import.meta.url).pathname;
/** Fake microseconds per clock reading: a `measure` case does 1000/125 = 8 warm-up units and 16 per reading after. */
const TICK_US = 125_000;
/**
 * Fixed-work settings per case (first match; default: 1000 ms budget at TICK_US a reading). The
 * budget is fake ms, so a case's timed part is big enough to average over games but small enough for
 * valgrind: 16 units per 125 ms. The explorer's budget is its state bound (5,000 states at the
 * floor); the 1000×1000 boards take tens of ms a unit, so they get one warm-up unit and 16 timed ones.
 * @type {Array<[RegExp, { budget: number, ticksUs?: string, steady?: boolean }]>}
 */
const FIXED_SETTINGS = [
  [/^mines\/(chain|digits)/, { budget: 125 }],
  [/^mines\/no-guess-1000x1000/, { budget: 125 }],
  [/^duel\/explore/, { budget: 20 }],
  [/^bnc\/menu-random-checked/, { budget: 250 }],
  // A tic-tac-toe game is a few µs, so 8 warm-up games measured V8 still compiling (the hot helpers
  // were not yet inlined). Steady state: 20,000 warm-up games (1000 ms at 50 µs a reading), a full GC,
  // then 20,480 timed ones (4000 ms at 3125 µs a reading, 16 games each); see docs/bench.md.
  [/^tictactoe\/(plain|engine)/, { budget: 4000, ticksUs: '50,3125', steady: true }],
  [/^tictactoe\//, { budget: 4000 }],
];
/** Cases whose loops read wall time (waits, latency), not the CPU clock: only the time mode measures them. */
const TIME_ONLY = /^agents\//;

/** @param {Record<string, number | undefined>} r @returns {number | null} */
const rate = (r) => r.moves_per_cpu_s ?? r.games_per_cpu_s ?? r.states_per_cpu_s ?? r.ops_per_cpu_s ?? null;

/**
 * @param {string[]} cmd @param {string} cwd @param {NodeJS.ProcessEnv} env
 * @returns {Promise<{ stdout: string, stderr: string, code: number | null }>}
 */
const run = (cmd, cwd, env) =>
  new Promise((resolve) => {
    const p = spawn(cmd[0], cmd.slice(1), { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('close', (code) => resolve({ stdout, stderr, code }));
  });

/** @param {string} stdout @returns {Array<Record<string, any>>} */
const jsonLines = (stdout) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));

/** One `arbiter bench` in time mode: case -> actions per CPU second. @param {string} dir */
async function timeRun(dir) {
  const r = await run(
    [process.execPath, 'bin/arbiter.js', 'bench', '--json', '--budget', budget || '1000', ...filters],
    dir,
    {},
  );
  /** @type {Map<string, number>} */
  const out = new Map();
  for (const j of jsonLines(r.stdout)) {
    const v = rate(j);
    if (v !== null) out.set(j.case, v);
  }
  return out;
}

/**
 * One fixed-work `arbiter bench` of one filter: case -> cost per action (ns of CPU, or instructions).
 * @param {string} dir @param {string} filter
 */
async function fixedRun(dir, filter) {
  const tmp = mkdtempSync(join(keep || tmpdir(), 'before-after-'));
  const marksFile = join(tmp, 'marks');
  const set = FIXED_SETTINGS.find(([re]) => re.test(filter))?.[1] ?? { budget: 1000 };
  const caseBudget = budget || String(set.budget);
  const steady = set.steady === true;
  const node = [
    process.execPath,
    ...(mode === 'instructions' ? ['--predictable'] : []),
    ...(steady ? ['--expose-gc'] : []),
    '--import',
    FIXED_CLOCK,
  ];
  const cmd = [...node, 'bin/arbiter.js', 'bench', '--json', '--budget', caseBudget, filter];
  // under valgrind, Node's start-up and the CLI's compilation (most of a small case's run) go
  // uninstrumented: the preload turns instrumenting on at its first mark (steady: per timed part)
  const instrument = mode === 'instructions';
  const r = await run(instrument ? [...callgrindArgs(join(tmp, 'cg'), true), ...cmd] : cmd, dir, {
    ARBITER_FIXED_CLOCK_US: set.ticksUs ?? String(TICK_US),
    ARBITER_FIXED_CLOCK_MARKS: marksFile,
    ...(steady ? { ARBITER_FIXED_CLOCK_TIMED_US: String(Number(caseBudget) * 1000) } : {}),
    ...(instrument ? { ARBITER_FIXED_CLOCK_INSTRUMENT: '1' } : {}),
  });
  const results = jsonLines(r.stdout);
  if (r.code !== 0 || results.length === 0)
    throw new Error(`${dir}: bench ${filter} failed (${r.code}):\n${r.stderr.slice(-2000)}`);
  const marks = readMarks(marksFile);
  const spans = timedSpans(
    marks.map((m) => m.kind),
    results.length,
  );
  const costs =
    mode === 'instructions'
      ? spanInstructions(marks, readDumps(tmp, 'cg', marks.filter((m) => m.dumped).length), spans)
      : spans.map(([s, e]) => (marks[e].cpuUs - marks[s].cpuUs) * 1000);
  if (!keep) rmSync(tmp, { recursive: true, force: true });
  /** @type {Map<string, number>} */
  const out = new Map();
  results.forEach((j, i) => {
    if (j.moves > 0) out.set(j.case, costs[i] / j.moves);
  });
  return out;
}

/** The cases a side lists, filtered as `arbiter bench` filters them. @param {string} dir */
async function caseNames(dir) {
  const r = await run([process.execPath, 'bin/arbiter.js', 'bench', '--list'], dir, {});
  return r.stdout
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((p) => p.length >= 2 && (filters.length === 0 || filters.some((f) => p[1].includes(f) || p[0].includes(f))))
    .map((p) => p[1]);
}

/** Runs `tasks` at most `jobs` at a time. @template T @param {Array<() => Promise<T>>} tasks @returns {Promise<T[]>} */
async function pool(tasks) {
  /** @type {T[]} */
  const out = [];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, worker));
  return out;
}

/** @param {number} x */
const fmt = (x) => (x >= 100 ? String(Math.round(x)) : x.toFixed(2));
/** side -> case -> one figure per run @type {Record<string, Map<string, number[]>>} */
const samples = { before: new Map(), after: new Map() };
const sides = /** @type {const} */ ([
  ['before', beforeDir],
  ['after', afterDir],
]);
/** run i's figures, kept at index i so run i of one side is compared with run i of the other @param {'before' | 'after'} side @param {Map<string, number>} got @param {number} i */
const add = (side, got, i) => {
  for (const [k, v] of got) {
    const xs = samples[side].get(k) ?? [];
    xs[i] = v;
    samples[side].set(k, xs);
  }
};
/** @type {string[]} */
let skipped = [];
if (mode === 'time') {
  for (let i = 0; i < runs; i++)
    for (const [side, dir] of sides) {
      add(side, await timeRun(dir), i);
      process.stderr.write(`run ${i + 1}/${runs} ${side} done\n`);
    }
} else {
  const names = await caseNames(afterDir);
  skipped = names.filter((n) => TIME_ONLY.test(n));
  const wanted = names.filter((n) => !TIME_ONLY.test(n));
  // `arbiter bench` selects by substring, so the filter `tictactoe/engine` runs `…engine-checked` too:
  // such a case is measured by the wider filter's process, not run again
  const procs = wanted.filter((n) => !wanted.some((m) => m !== n && n.includes(m)));
  /** @type {Array<() => Promise<void>>} */
  const tasks = [];
  for (let i = 0; i < runs; i++)
    for (const name of procs)
      for (const [side, dir] of sides)
        tasks.push(async () => {
          const got = await fixedRun(dir, name);
          add(side, new Map([...got].filter(([k]) => wanted.includes(k))), i);
          process.stderr.write(
            `run ${i + 1}/${runs} ${side} ${name}: ${[...got].map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}\n`,
          );
        });
  await pool(tasks);
}

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const unit = { time: 'actions/CPU-s', fixed: 'CPU ns/action', instructions: 'instructions/action' }[mode];
console.log(`mode ${mode}, ${runs} run(s) a side; speed ratio: above 1 = after is faster`);
console.log(`case | before (median ${unit}) | after (median ${unit}) | speed after/before (median, range over runs)`);
for (const [k, after] of samples.after) {
  const before = samples.before.get(k);
  if (!before) {
    console.log(`${k} | - | ${fmt(median(after))} | new case`);
    continue;
  }
  // throughput: after/before; a cost per action: before/after
  const ratios = after.map((a, i) => {
    const b = before[Math.min(i, before.length - 1)];
    return mode === 'time' ? a / b : b / a;
  });
  console.log(
    `${k} | ${fmt(median(before))} | ${fmt(median(after))} | ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})`,
  );
}
// a case the after side no longer has is reported too, so a dropped case cannot pass unseen
for (const [k, before] of samples.before)
  if (!samples.after.has(k)) console.log(`${k} | ${fmt(median(before))} | - | gone after`);
for (const k of skipped) console.log(`${k} | - | - | wall-time case: only --mode time measures it`);
