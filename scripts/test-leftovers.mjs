// What a test run leaves behind, cleared at its end. The runner gives every test process a TMPDIR of
// its own (inside the run's scratch folder), so each temporary folder a test or a program it starts
// makes (servers' databases and transcripts, PostgreSQL clusters, Chromium profiles) lands there.
// A test that fails, or a file whose process is killed before its `after` hooks run, can leave such a
// folder and the process using it (a throw-away PostgreSQL cluster kept running once). At the end of
// the run this stops every process whose command line or working directory is inside that folder,
// says so on one line each (a leak is reported, not hidden), and removes the folder.
import { readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { sep } from 'node:path';

/**
 * Every process's command line (its arguments), read from /proc; null where there is no /proc. A
 * process that ends meanwhile, or is not ours to read, is left out.
 * @returns {{ pid: number, args: string[] }[] | null}
 */
export function commandLines() {
  /** @type {string[]} */
  let pids;
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  /** @type {{ pid: number, args: string[] }[]} */
  const lines = [];
  for (const p of pids)
    try {
      lines.push({ pid: Number(p), args: readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0') });
    } catch {
      // ended meanwhile
    }
  return lines;
}

/**
 * The processes (not this one) whose command line names `dir` or whose working directory is inside
 * it. Linux only (/proc); elsewhere none.
 * @param {string} dir
 * @returns {{ pid: number, cmd: string }[]}
 */
export function processesUsing(dir) {
  const inside = (/** @type {string} */ p) => p === dir || p.startsWith(dir + sep);
  /** @type {{ pid: number, cmd: string }[]} */
  const found = [];
  for (const { pid, args } of commandLines() ?? []) {
    if (pid === process.pid) continue;
    const cmd = args.join(' ').trim();
    let cwd = '';
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      // another user's process, or ended: its command line is enough
    }
    if (cmd.includes(dir) || inside(cwd)) found.push({ pid, cmd });
  }
  return found;
}

const alive = (/** @type {number} */ pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Stop what still runs inside `dir` (PostgreSQL with SIGQUIT, its immediate shutdown; others with
 * SIGTERM; SIGKILL for whatever is left after two seconds), then remove `dir`.
 * @param {string} dir
 * @param {(line: string) => void} [say]
 * @returns {Promise<{ pid: number, cmd: string }[]>} what had to be stopped
 */
export async function clearLeftovers(dir, say = (line) => console.log(line)) {
  const left = processesUsing(dir);
  for (const { pid, cmd } of left) {
    say(`run-tests: a test left a process running; stopping it: ${pid} ${cmd.slice(0, 160)}`);
    try {
      process.kill(pid, /(^|\/)postgres /.test(cmd) ? 'SIGQUIT' : 'SIGTERM');
    } catch {
      // gone already
    }
  }
  const until = Date.now() + 2000;
  while (left.some((p) => alive(p.pid)) && Date.now() < until) await new Promise((ok) => setTimeout(ok, 50));
  for (const { pid } of left)
    try {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  rmSync(dir, { recursive: true, force: true });
  return left;
}
