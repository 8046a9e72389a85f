// Compiles the test files once, with esbuild, into build/test-XXXXXX/ (one bundle per test file, packages
// left as imports), so that each test file's process starts with plain Node instead of loading tsx
// and compiling its sources module by module: about 1 s of CPU per file on the two-core machines
// the suite runs on, times a hundred files (issue 24). `node --import tsx --test FILE.ts` still runs
// any one file from its sources, as the guide says.
//
// A bundle keeps the meaning of paths: every source module's `import.meta.url` (and `dirname`,
// `filename`) is replaced by its original location, so fixtures, sources read as text and workers
// resolve exactly as they do from the sources. The `@arbiter/engine` names resolve to the engine's
// sources, as tsconfig's `paths` say. Source maps point failures at the .ts lines.
import { build } from 'esbuild';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const BUILD = join(ROOT, 'build');

/** tsconfig's `paths` for the engine package, as a resolver. */
function engineSources() {
  const { paths } = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')).compilerOptions;
  /** @type {(spec: string) => string | undefined} */
  return (spec) => {
    const exact = paths[spec];
    if (exact) return join(ROOT, exact[0]);
    for (const [pattern, [target]] of Object.entries(paths)) {
      if (!pattern.endsWith('/*')) continue;
      const prefix = pattern.slice(0, -1);
      if (spec.startsWith(prefix)) return join(ROOT, target.replace('*', spec.slice(prefix.length)));
    }
    return undefined;
  };
}

const META = /\bimport\.meta\.(url|dirname|filename)\b/g;
const HAS_META = /\bimport\.meta\.(url|dirname|filename)\b/;

/** @type {import('esbuild').Plugin} */
const keepPaths = {
  name: 'arbiter-keep-paths',
  setup(b) {
    const engine = engineSources();
    b.onResolve({ filter: /^@arbiter\/engine(\/.*)?$/ }, (args) => {
      const path = engine(args.path);
      if (!path || !existsSync(path)) return { errors: [{ text: `no engine source for ${args.path}` }] };
      return { path };
    });
    b.onLoad({ filter: /\.(m?[jt]sx?)$/ }, (args) => {
      if (args.path.includes(`${'/'}node_modules${'/'}`)) return undefined;
      const source = readFileSync(args.path, 'utf8');
      if (!HAS_META.test(source)) return undefined;
      const url = pathToFileURL(args.path).href;
      const contents = source.replace(META, (_m, key) =>
        JSON.stringify(key === 'url' ? url : key === 'dirname' ? dirname(args.path) : args.path),
      );
      const ext = args.path.slice(args.path.lastIndexOf('.') + 1);
      const loader = ext === 'mts' || ext === 'cts' ? 'ts' : ext === 'mjs' || ext === 'cjs' ? 'js' : ext;
      return { contents, loader: /** @type {import('esbuild').Loader} */ (loader), resolveDir: dirname(args.path) };
    });
  },
};

/**
 * Bundle the given test files (paths under the repository) into a fresh build/test-XXXXXX/ folder
 * (each run its own, so two runs in one checkout never pull files from under each other), mirroring
 * their paths with `.mjs` under a folder numbered by their place in `files`. Returns the folder (to
 * remove after the run) and the bundles' paths in the files' order.
 * @param {string[]} files
 * @returns {Promise<{ dir: string; bundles: string[] }>}
 */
export async function bundleTests(files) {
  mkdirSync(BUILD, { recursive: true });
  // folders of runs that were killed before they could remove theirs
  for (const name of readdirSync(BUILD)) {
    const old = join(BUILD, name);
    if (name.startsWith('test-') && Date.now() - statSync(old).mtimeMs > 24 * 3600_000)
      rmSync(old, { recursive: true, force: true });
  }
  const TEST_BUILD = mkdtempSync(join(BUILD, 'test-'));
  // `node --test` sorts the paths it is given: a numbered folder per file keeps the caller's order
  // (the runner's longest-first) as the sort order; scripts/test-cpu.mjs drops the number again
  const outOf = (/** @type {string} */ f, /** @type {number} */ i) =>
    join(String(i).padStart(4, '0'), relative(ROOT, join(ROOT, f)).replace(/\.tsx?$/, ''));
  const entryPoints = files.map((f, i) => ({ in: join(ROOT, f), out: outOf(f, i) }));
  await build({
    entryPoints,
    outdir: TEST_BUILD,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    splitting: true,
    // functions keep their `name` (the contract-name test reads it), though the bundle renames clashes
    keepNames: true,
    logLevel: 'warning',
    plugins: [keepPaths],
  });
  const bundles = files.map((f, i) => join(TEST_BUILD, `${outOf(f, i)}.mjs`));
  return { dir: TEST_BUILD, bundles };
}
