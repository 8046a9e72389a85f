// Bundles the page's module for a browser: `node examples/engine-browser/build.mjs` (after
// `npm run build --workspace @arbiter/engine`) writes out/page.js, then open index.html from disk.
// `@arbiter/engine` is resolved through the engine package's own `exports` to its dist/ files, as
// an installed copy would be: the checkout's tsconfig maps the name to the sources instead, which
// is what the application wants but not what this page is meant to show.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const HERE = dirname(fileURLToPath(import.meta.url));
const ENGINE = join(HERE, '../../packages/engine');

/**
 * The dist file the engine's package.json exports `specifier` as (`@arbiter/engine/kernel` ...),
 * found under `dist` (the package's own dist/, or another folder tsdown wrote the same files to).
 * @param {string} specifier
 * @param {string} dist
 */
function distFile(specifier, dist) {
  const manifest = JSON.parse(readFileSync(join(ENGINE, 'package.json'), 'utf8'));
  const sub = `.${specifier.slice('@arbiter/engine'.length)}`;
  const direct = manifest.exports[sub];
  const starred = sub.startsWith('./rulesets/') ? manifest.exports['./rulesets/*'] : undefined;
  const target = direct ? direct.import : starred?.import.replace('*', sub.slice('./rulesets/'.length));
  if (typeof target !== 'string') throw new Error(`@arbiter/engine does not export ${sub}`);
  const file = join(dist, target.replace(/^\.\/dist\//, ''));
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build --workspace @arbiter/engine first`);
  return file;
}

/**
 * Bundles page.mjs into one classic script (an IIFE, so index.html works opened from disk, where a
 * browser refuses module scripts). Returns the code and the files that went into it.
 * @param {{ write?: boolean, dist?: string }} [options] `dist`: where the engine's built files are
 */
export async function buildPage(options = {}) {
  const dist = options.dist ?? join(ENGINE, 'dist');
  const r = await build({
    entryPoints: [join(HERE, 'page.mjs')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    outfile: join(HERE, 'out/page.js'),
    write: options.write ?? false,
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'engine-from-dist',
        setup(b) {
          b.onResolve({ filter: /^@arbiter\/engine(\/.*)?$/ }, (a) => ({ path: distFile(a.path, dist) }));
          b.onResolve({ filter: /^node:/ }, (a) => ({ errors: [{ text: `${a.importer} imports ${a.path}` }] }));
        },
      },
    ],
  });
  const code = r.outputFiles ? r.outputFiles[0].text : readFileSync(join(HERE, 'out/page.js'), 'utf8');
  return { code, inputs: Object.keys(r.metafile.inputs) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { inputs } = await buildPage({ write: true });
  console.log(`wrote examples/engine-browser/out/page.js from ${inputs.length} files`);
}
