// Build the web page into web/dist when it is missing or older than its sources (npm start and the
// browser tests). A lock folder keeps concurrent callers (test files run in parallel) from building
// at once: the others wait for it and then find the page fresh.
import { spawnSync } from 'node:child_process';
import { withBuildLock } from './build-lock.mjs';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIST = join(ROOT, 'web', 'dist');

function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = s.mtimeMs;
  for (const name of readdirSync(path))
    if (name !== 'node_modules' && name !== 'dist') t = Math.max(t, newest(join(path, name)));
  return t;
}

// the page bundles the engine (rulesets for its replay viewer) and the report's charts: sources too
const SOURCES = ['web/src', 'web/index.html', 'web/vite.config.ts', 'packages/engine/src', 'src/report'];

export function webStale() {
  const built = join(WEB_DIST, 'index.html');
  if (!existsSync(built)) return true;
  const at = statSync(built).mtimeMs;
  return SOURCES.map((p) => join(ROOT, p)).some((p) => existsSync(p) && newest(p) > at);
}

/** Build when stale; returns true when the page is there afterwards. */
export async function buildWebIfStale({ quiet = false } = {}) {
  const lock = join(ROOT, 'web', '.build-lock');
  return withBuildLock(lock, 200, () => {
    if (webStale()) {
      if (!quiet) process.stderr.write('building the web page (web/dist) ...\n');
      const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
      const r = spawnSync(process.execPath, [vite, 'build', join(ROOT, 'web'), '--logLevel', 'warn'], {
        stdio: quiet ? 'pipe' : 'inherit',
        encoding: 'utf8',
      });
      if (r.status !== 0) {
        process.stderr.write(`the web page did not build:\n${r.stdout ?? ''}${r.stderr ?? ''}\n`);
        return false;
      }
    }
    return existsSync(join(WEB_DIST, 'index.html'));
  });
}

// `node scripts/web-build.mjs` (npm ci's `prepare`, after the command line): the lobby that `npm start`
// serves and the browser tests load is there from the install on, not built by whichever needs it first
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const stale = webStale();
  const ok = await buildWebIfStale({ quiet: false });
  if (ok && !stale) process.stderr.write('web/dist is up to date\n');
  process.exit(ok ? 0 : 1);
}
