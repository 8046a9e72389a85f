// The `arbiter` process: runs the command line on this process's streams (src/cli/run.ts) and
// exits with its code. bin/arbiter.js loads this module from the build, or through tsx.

import { processIO } from './io.ts';
import { run } from './run.ts';

// a reader that stops early (`| head`) is not an error
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

process.exitCode = await run(process.argv.slice(2), processIO());
