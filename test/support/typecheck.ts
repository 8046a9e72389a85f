// What the TypeScript checker says of one file: the native compiler (TypeScript 7, as npm test's
// checks run it) over a tsconfig naming that file alone, written beside it. A process of the
// native compiler costs a fraction of a TypeScript 6 program built in the test's own process.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const TSC = join(process.cwd(), 'node_modules/typescript7/bin/tsc');

/** The file's diagnostics, one line each (empty: it type-checks); `options` are tsconfig compilerOptions. */
export function typeProblems(file: string, options: Record<string, unknown> = {}): string[] {
  const dir = dirname(file);
  const config = {
    compilerOptions: {
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
      ...options,
    },
    files: [basename(file)],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
  const r = spawnSync(process.execPath, [TSC, '-p', dir, '--pretty', 'false'], { encoding: 'utf8' });
  if (r.status === 0) return [];
  const lines = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.trim());
  return lines.length ? lines : [`tsc exited ${r.status} without a message`];
}
