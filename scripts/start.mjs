// `npm start`: build the web page when it is missing or older than its sources, then run
// `arbiter serve` on the embedded defaults (SQLite file arbiter.sqlite, 127.0.0.1:8080), which prints
// the lobby's address. Extra arguments go to `arbiter serve` (`npm start -- --port 9000`).
//
// The server is this script's child: SIGINT, SIGTERM and SIGHUP are passed on to it (it drains and
// exits), and this script exits with its code. The child also holds an IPC channel to this script,
// so if this script dies without passing anything on (kill -9), the server notices the channel close
// and drains too instead of keeping the port. package.json runs this script with `exec`, so npm's
// own signal reaches it rather than only the shell in between.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildWebIfStale, ROOT } from './web-build.mjs';

// ARBITER_NO_WEB_BUILD=1 skips the build (tests of this script; a machine without the page's tools)
const web = process.env.ARBITER_NO_WEB_BUILD === '1' ? false : await buildWebIfStale();
if (!web) process.stderr.write('npm start: serving the API only (no web page)\n');
const child = spawn(process.execPath, [join(ROOT, 'bin', 'arbiter.js'), 'serve', ...process.argv.slice(2)], {
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
});
for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) process.on(sig, () => child.kill(sig));
// npm passes a signal to the shell it ran this script in, and a shell that dies of it does not pass
// it on: when the parent changes (this script was orphaned), stop the server as if told to
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) child.kill('SIGTERM');
}, 500).unref();
child.on('exit', (code, sig) => process.exit(code ?? (sig ? 1 : 0)));
