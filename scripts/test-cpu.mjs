// Loaded (--import) into every test file's process by scripts/run-tests.mjs: when the process ends it
// writes what the file cost to ARBITER_TEST_COST_DIR — wall time from process start (start-up and
// module loading included, which the reporter's per-test durations leave out) and CPU time, its own
// plus that of the child processes it waited for (CLI runs, PostgreSQL, Chromium). CPU is the
// figure that means something on a shared machine; wall is what the scheduler orders files by.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const dir = process.env.ARBITER_TEST_COST_DIR;
// a bundled test file (build/test-XXXXXX/NNNN/<path>.mjs, scripts/test-bundle.mjs) is named by its source's path
const run = process.argv[1] ?? '';
const bundled = /[\\/]build[\\/]test-[^\\/]+[\\/]\d+[\\/](.*)\.test\.mjs$/.exec(run);
const file = bundled ? join(process.env.ARBITER_TEST_SOURCE_ROOT ?? process.cwd(), `${bundled[1]}.test.ts`) : run;

/** Own and reaped children's CPU in ms: /proc/self/stat where there is one (Linux), else own only. */
function cpuMs() {
  try {
    // fields after the command name: utime, stime, cutime, cstime are the 12th to 15th, in clock ticks
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = (/** @type {number} */ i) => Number(f[i]) * 10; // USER_HZ is 100 on Linux
    return { self: ticks(11) + ticks(12), children: ticks(13) + ticks(14) };
  } catch {
    const u = process.cpuUsage();
    return { self: (u.user + u.system) / 1000, children: 0 };
  }
}

if (dir && file?.endsWith('.test.ts')) {
  process.on('exit', () => {
    const wall = performance.now(); // since this process started
    const { self, children } = cpuMs();
    // startMs: when the process started (epoch ms), so the runner can draw the run's timeline
    const row = {
      file,
      wallMs: Math.round(wall),
      cpuMs: self + children,
      childCpuMs: children,
      startMs: Math.round(performance.timeOrigin),
    };
    try {
      writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(row));
    } catch {
      // the run's summary then lacks this file's cost; the tests themselves are unaffected
    }
  });
}
