// Where the package's files are, whether the CLI runs from its sources (src/cli/*.ts through tsx)
// or from its build (build/cli/*.js, chunks at another depth): found from the package.json above
// this module rather than by counting `../`.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

function packageRoot(from: string): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if (JSON.parse(readFileSync(manifest, 'utf8')).name === 'arbiter') return dir;
      } catch {
        // an unreadable manifest is not ours: keep looking upwards
      }
    }
    if (dirname(dir) === dir) throw new Error(`no arbiter package.json above ${from}`);
  }
}

/** The repository (or installed package) root, with a trailing separator. */
export const ROOT = join(packageRoot(fileURLToPath(import.meta.url)), '/');

/** True when this code runs from the build rather than the TypeScript sources. */
const BUILT = !import.meta.url.endsWith('.ts');

/** The worker module of the simulation pool, in the same form (source or build) as this code. */
export const SIM_WORKER = pathToFileURL(join(ROOT, BUILT ? 'build/cli/sim-worker.js' : 'src/cli/sim-worker.ts')).href;
