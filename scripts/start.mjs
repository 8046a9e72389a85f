// `npm start`: build the web page when it is missing or older than its sources, then run
// `arbiter serve` on the embedded defaults (SQLite file arbiter.sqlite, 127.0.0.1:8080), which prints
// the lobby's address. Extra arguments go to `arbiter serve` (`npm start -- --port 9000`).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildWebIfStale, ROOT } from './web-build.mjs';

if (!(await buildWebIfStale())) process.stderr.write('npm start: serving the API only (no web page)\n');
const child = spawn(process.execPath, [join(ROOT, 'bin', 'arbiter.js'), 'serve', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(sig, () => child.kill(sig));
child.on('exit', (code, sig) => process.exit(code ?? (sig ? 1 : 0)));
