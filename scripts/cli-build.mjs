// The command line's build (build/cli, scripts/tsdown.cli.config.ts): made by `npm ci` (`prepare`), and by
// bin/arbiter.js in a source checkout whenever a source is newer than the build, so a developer never
// runs a stale command. Run directly (`node scripts/cli-build.mjs`) it builds when stale and says so.
// Concurrent callers (test files in parallel) take a lock folder; the others wait and find it fresh.
// The build is written beside the old one and swapped in, so a reader never sees half a folder.
import { withBuildLock } from './build-lock.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'build', 'cli');
/** Written last, so its time is when the whole build finished. */
const STAMP = join(OUT, '.built');

// everything the build reads: the sources, the benchmarks the `bench` verb bundles, the config,
// and package.json (which names the packages left in node_modules)
const SOURCES = [
  'src',
  'packages/engine/src',
  'bench',
  'scripts/tsdown.cli.config.ts',
  'package.json',
  'tsconfig.json',
];

/** Whether `path`, or anything under it, changed after `at` (ms). @param {string} path @param {number} at @returns {boolean} */
function newerThan(path, at) {
  const s = statSync(path, { throwIfNoEntry: false });
  if (!s) return false;
  if (s.mtimeMs > at) return true;
  if (!s.isDirectory()) return false;
  for (const name of readdirSync(path)) if (newerThan(join(path, name), at)) return true;
  return false;
}

export function cliStale() {
  const built = statSync(STAMP, { throwIfNoEntry: false });
  if (!built) return true;
  return SOURCES.some((p) => newerThan(join(ROOT, p), built.mtimeMs));
}

/** Builds when stale; returns true when a build is there afterwards. */
export async function buildCliIfStale({ quiet = true } = {}) {
  const tsdown = join(ROOT, 'node_modules', 'tsdown', 'dist', 'run.mjs');
  if (!existsSync(tsdown)) return existsSync(STAMP);
  mkdirSync(join(ROOT, 'build'), { recursive: true });
  const lock = join(ROOT, 'build', '.cli-lock');
  return withBuildLock(lock, 100, () => {
    if (!cliStale()) return true;
    if (!quiet) process.stderr.write('building the command line (build/cli) ...\n');
    const tmp = join(ROOT, 'build', `cli.new-${process.pid}`);
    const r = spawnSync(
      process.execPath,
      [tsdown, '-c', join(ROOT, 'scripts', 'tsdown.cli.config.ts'), '-d', tmp, '--log-level', 'warn'],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
    if (r.status !== 0) {
      rmSync(tmp, { recursive: true, force: true });
      // from bin/arbiter.js one line (the sources then run through tsx, which shows a real error
      // where the command meets it); run directly, the whole build output
      if (quiet)
        process.stderr.write(
          'arbiter: the command line did not build (`node scripts/cli-build.mjs` shows why); running the sources through tsx\n',
        );
      else process.stderr.write(`the command line did not build:\n${r.stdout}${r.stderr}\n`);
      return false;
    }
    // `arbiter rulesets` prints this table rather than evaluating every ruleset (src/cli/core/rulesets.ts);
    // the new build makes it from the packages, as it has no table yet
    const table = spawnSync(process.execPath, [join(tmp, 'main.js'), 'rulesets', '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    if (table.status !== 0) {
      rmSync(tmp, { recursive: true, force: true });
      process.stderr.write(`the command line built but \`rulesets --json\` failed:\n${table.stderr}\n`);
      return false;
    }
    writeFileSync(join(tmp, 'rulesets.json'), table.stdout);
    writeFileSync(join(tmp, '.built'), '');
    const old = join(ROOT, 'build', `cli.old-${process.pid}`);
    if (existsSync(OUT)) renameSync(OUT, old);
    renameSync(tmp, OUT);
    rmSync(old, { recursive: true, force: true });
    return true;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const stale = cliStale();
  const ok = await buildCliIfStale({ quiet: false });
  if (ok && !stale) process.stderr.write('build/cli is up to date\n');
  process.exit(ok ? 0 : 1);
}
