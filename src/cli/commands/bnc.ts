// bnc-specific verbs: `schema bnc` (JSON Schemas of every action), `rules bnc` (the public
// rules page from the catalog), `lock bnc` (pin the engine commit in the manifest and page),
// `beats LOG` (the beats of a match log).

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { ArbiterError } from '../../kernel/index.ts';
import { parseLog } from '../../runners/logfile.ts';
import { allJsonSchemas } from '../../rulesets/bnc/schema.ts';
import { renderRulesPage } from '../../rulesets/bnc/rulespage.ts';
import { beatsOf } from '../../rulesets/bnc/beats.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const MANIFEST = `${ROOT}src/rulesets/bnc/manifest.json`;
export const RULES_PAGE = `${ROOT}docs/rules/bnc.md`;

export function readManifest(): { engine_sha: string | null } & Record<string, unknown> {
  return JSON.parse(readFileSync(MANIFEST, 'utf8'));
}

/** Pin HEAD of the checkout at `root` in its bnc manifest and rules page; returns the SHA. */
export function lockBnc(root: string): string {
  let sha: string;
  try {
    sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    throw new ArbiterError('not_found', 'git rev-parse HEAD failed: is this a git checkout with a commit?');
  }
  if (!/^[0-9a-f]{40}$/.test(sha)) throw new ArbiterError('bad_config', `unexpected commit id "${sha}"`);
  const file = `${root}/src/rulesets/bnc/manifest.json`;
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  manifest.engine_sha = sha;
  writeFileSync(file, JSON.stringify(manifest, null, 2) + '\n');
  writeFileSync(`${root}/docs/rules/bnc.md`, renderRulesPage(sha));
  return sha;
}

function onlyBnc(id: string): void {
  if (id !== 'bnc') throw new ArbiterError('not_found', `this command knows only the bnc ruleset (got "${id}")`);
}

function taken(program: Command, name: string): boolean {
  return program.commands.some((c) => c.name() === name);
}

export function register(program: Command): void {
  if (!taken(program, 'schema')) {
    program
      .command('schema')
      .argument('<ruleset>', 'bnc')
      .option('--action <type>', 'only this action family')
      .description('print the JSON Schema of every action (generated from the definitions the engine validates with)')
      .action((id: string, opts: { action?: string }) => {
        onlyBnc(id);
        const all = allJsonSchemas();
        if (opts.action) {
          const one = all.actions[opts.action];
          if (!one) throw new ArbiterError('not_found', `no action "${opts.action}" (known: ${Object.keys(all.actions).join(', ')})`);
          console.log(JSON.stringify(one, null, 2));
        } else console.log(JSON.stringify(all, null, 2));
      });
  }
  if (!taken(program, 'rules')) {
    program
      .command('rules')
      .argument('<ruleset>', 'bnc')
      .option('--write', 'write docs/rules/bnc.md instead of printing')
      .description('generate the public rules page from the engine catalog')
      .action((id: string, opts: { write?: boolean }) => {
        onlyBnc(id);
        const page = renderRulesPage(readManifest().engine_sha);
        if (opts.write) writeFileSync(RULES_PAGE, page);
        else process.stdout.write(page);
      });
  }
  if (!taken(program, 'lock')) {
    program
      .command('lock')
      .argument('<ruleset>', 'bnc')
      .description('write the engine commit (git rev-parse HEAD) into the ruleset manifest and the rules page')
      .action((id: string) => {
        onlyBnc(id);
        const sha = lockBnc(ROOT);
        console.log(`bnc locked to engine ${sha}; commit src/rulesets/bnc/manifest.json and docs/rules/bnc.md`);
      });
  }
  if (!taken(program, 'beats')) {
    program
      .command('beats')
      .argument('<log>', 'a JSON Lines match log')
      .option('--json', 'one JSON object per beat')
      .description('list the beats (highlights) of a match log')
      .action((file: string, opts: { json?: boolean }) => {
        let text: string;
        try {
          text = readFileSync(file, 'utf8');
        } catch {
          throw new ArbiterError('not_found', `cannot read ${file}`);
        }
        const log = parseLog(text);
        const beats = beatsOf(log.entries as unknown as { seq: number; events: [] }[]);
        for (const b of beats) {
          if (opts.json) console.log(JSON.stringify(b));
          else console.log(`turn ${String(b.turn).padStart(2)}  seq ${String(b.seq).padStart(4)}  ${b.beat.padEnd(16)} ${JSON.stringify(b.detail)}`);
        }
        if (!opts.json) console.log(`${beats.length} beats in ${log.entries.length} submissions (${log.header.ruleset} seed ${log.header.seed})`);
      });
  }
}
