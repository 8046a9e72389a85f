// `arbiter new ID [--dir PATH]`: writes a ruleset package on the skeleton of
// docs/guide-write-a-ruleset.md, from the template files in src/cli/new-template/. The game it
// writes is a placeholder whose conformance suite, scenarios and coverage pass from the start, so a
// designer replaces it rule by rule instead of starting from a blank file.

import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { CliContext } from '../io.ts';
import { ArbiterError } from '@arbiter/engine/kernel';
import { rulesetIds } from '@arbiter/engine';
import { ROOT } from '../paths.ts';

const TEMPLATE = join(ROOT, 'src', 'cli', 'new-template');
const ENGINE_SRC = join(ROOT, 'packages', 'engine', 'src');
const KERNEL = join(ENGINE_SRC, 'kernel', 'index.ts');

/** Lower-case words joined by single dashes, starting with a letter: it names files, types and rule ids. */
const ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

export type NewRulesetResult = {
  /** The ruleset folder and the scenario folder that were written. */
  folder: string;
  scenarios: string;
  files: string[];
  /** The name `index.ts` exports the package under (`<camel>Package`). */
  packageName: string;
};

/** The words a template's `{{...}}` placeholders stand for, derived from the id. */
export function templateWords(
  id: string,
  kernelImport: string,
  scenarios: string,
  zodImport = 'zod',
): Record<string, string> {
  const words = id.split('-');
  const cap = (w: string) => w[0].toUpperCase() + w.slice(1);
  return {
    id,
    idlower: id,
    Title: words.map(cap).join(' '),
    Type: words.map(cap).join(''),
    name: words[0] + words.slice(1).map(cap).join(''),
    RULE: words.join('').toUpperCase(),
    kernel: kernelImport,
    zod: zodImport,
    scenarios,
  };
}

function fill(text: string, words: Record<string, string>, file: string): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => {
    const w = words[key];
    if (w === undefined) throw new Error(`template ${file}: unknown placeholder {{${key}}}`);
    return w;
  });
}

const posix = (p: string) => p.split(sep).join('/');

/**
 * Writes the ruleset folder and `<root>/scenarios/<id>/`. Inside an Arbiter checkout the folder is
 * `packages/engine/src/rulesets/<id>/` beside the shipped rulesets, and the kernel import and the
 * scenario folder are the usual relative paths; elsewhere (a scratch folder) the folder is
 * `<root>/src/rulesets/<id>/`, the kernel is imported from this installation and the scenario folder
 * is recorded absolute.
 */
export function newRuleset(id: string, root: string, known: readonly string[] = rulesetIds()): NewRulesetResult {
  if (!ID.test(id) || id.length > 32)
    throw new ArbiterError(
      'bad_request',
      `a ruleset id is 1-32 lower-case letters and digits in dash-separated words, starting with a letter (got "${id}")`,
    );
  if (known.includes(id)) throw new ArbiterError('bad_request', `a ruleset with id "${id}" is already registered`);
  const base = resolve(root);
  if (existsSync(base) && !statSync(base).isDirectory())
    throw new ArbiterError('bad_request', `${base} is a file, not a folder; nothing was written`);
  const inCheckout = resolve(base, 'packages', 'engine', 'src', 'kernel', 'index.ts') === KERNEL;
  const folder = inCheckout ? join(ENGINE_SRC, 'rulesets', id) : join(base, 'src', 'rulesets', id);
  const scenarios = join(base, 'scenarios', id);
  for (const dir of [folder, scenarios])
    if (existsSync(dir) && readdirSync(dir).length > 0)
      throw new ArbiterError('bad_request', `${dir} already exists and is not empty; nothing was written`);

  let kernelImport = posix(relative(folder, KERNEL));
  if (!kernelImport.startsWith('.')) kernelImport = `./${kernelImport}`;
  const scenarioPath = inCheckout ? `scenarios/${id}` : posix(scenarios);
  // the schemas are declared with zod, like the shipped rulesets': by name in a checkout, and
  // elsewhere from this installation's copy (a scratch folder has no node_modules of its own)
  let zodImport = 'zod';
  if (!inCheckout) {
    zodImport = posix(relative(folder, fileURLToPath(import.meta.resolve('zod'))));
    if (!zodImport.startsWith('.')) zodImport = `./${zodImport}`;
  }
  const words = templateWords(id, kernelImport, scenarioPath, zodImport);

  const files: string[] = [];
  const copy = (from: string, to: string, rename: (name: string) => string) => {
    mkdirSync(to, { recursive: true });
    for (const name of readdirSync(from).sort()) {
      if (!name.endsWith('.tmpl')) continue;
      const out = join(to, rename(name.slice(0, -'.tmpl'.length)));
      writeFileSync(out, fill(readFileSync(join(from, name), 'utf8'), words, name));
      files.push(out);
    }
  };
  // outside a checkout, a root without package.json would load the .ts files as CommonJS: a second
  // copy of the kernel, whose ArbiterError the runners would not recognise
  const manifest = join(base, 'package.json');
  mkdirSync(base, { recursive: true }); // --dir may name a folder that does not exist yet
  if (!inCheckout && !existsSync(manifest)) {
    writeFileSync(manifest, `${JSON.stringify({ private: true, type: 'module' }, null, 2)}\n`);
    files.push(manifest);
  }
  copy(join(TEMPLATE, 'ruleset'), folder, (n) => n);
  copy(join(TEMPLATE, 'scenarios'), scenarios, (n) => `${id}-${n}`);
  return { folder, scenarios, files, packageName: `${words.name}Package` };
}

export function registerNew(program: Command, ctx: CliContext): void {
  program
    .command('new')
    .description('write a new ruleset package on the skeleton (a placeholder game that passes conformance)')
    .argument('<ruleset>', 'the new ruleset id (lower-case words joined by dashes)')
    .option('--dir <path>', 'root to write the ruleset folder and scenarios/<id>/ under', '.')
    .action((id: string, opts: { dir: string }) => {
      const r = newRuleset(id, opts.dir);
      const rel = (p: string) => posix(relative(ctx.io.cwd, p)) || '.';
      ctx.out(
        `wrote ${r.files.length} files: ${rel(r.folder)}/ and ${rel(r.scenarios)}/\n` +
          'next:\n' +
          `  1. register it: import { ${r.packageName} } from './rulesets/${id}/index.ts' and add it to PACKAGES in packages/engine/src/registry.ts\n` +
          `  2. write its rules page: arbiter rules ${id} --write\n` +
          '  3. npm test (conformance, scenarios, coverage), then replace the placeholder rule by rule\n',
      );
    });
}
