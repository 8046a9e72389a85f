// `npm start`: build the web page when it is missing or older than its sources, then run
// `arbiter serve` on the embedded defaults (SQLite file arbiter.sqlite, 127.0.0.1:8080).
// Extra arguments go to `arbiter serve` (`npm start -- --port 9000`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'web', 'dist', 'index.html');

function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = s.mtimeMs;
  for (const name of readdirSync(path))
    if (name !== 'node_modules' && name !== 'dist') t = Math.max(t, newest(join(path, name)));
  return t;
}

// the page bundles the rulesets for its replay viewer, so src/ counts as a source too
const sources = ['web/src', 'web/index.html', 'web/vite.config.ts', 'src/kernel', 'src/rulesets'].map((p) =>
  join(root, p),
);
const stale = !existsSync(built) || sources.some((p) => existsSync(p) && newest(p) > statSync(built).mtimeMs);
if (stale) {
  process.stderr.write('npm start: building the web page (web/dist) ...\n');
  const r = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', join(root, 'web'), '--logLevel', 'warn'],
    {
      stdio: 'inherit',
    },
  );
  if (r.status !== 0) {
    process.stderr.write('npm start: the web page did not build; serving the API only\n');
  }
}
const child = spawn(process.execPath, [join(root, 'bin', 'arbiter.js'), 'serve', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, sig) => process.exit(code ?? (sig ? 1 : 0)));
