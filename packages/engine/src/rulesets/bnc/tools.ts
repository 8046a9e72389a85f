// bnc's own subcommands (`arbiter bnc <tool>`), declared as data and given a ToolIO by the CLI:
// `beats LOG` lists the cut beats of a match log, `schema` prints the JSON Schemas of the actions
// and the config, `lock --sha SHA` writes the release directory rulesets/<version>/ (the locked
// manifest and the published page) that identifies a released ruleset.

import type { GameEvent, Json, RulesetTool, ToolIO } from '../../kernel/index.ts';
import { beatsOf } from './beats.ts';
import { VERSION } from './constants.ts';
import manifest from './manifest.json' with { type: 'json' };
import { renderRulesPage, type Manifest } from './page.ts';
import { allJsonSchemas } from './schema.ts';

/** The manifest of the version this engine implements, as committed in this folder. */
export const MANIFEST: Manifest = {
  ruleset: manifest.ruleset,
  version: manifest.version,
  seed: manifest.seed,
  engine_sha: manifest.engine_sha,
};

/** Where a released version lives, relative to the repository root. */
const releaseDir = (version: string) => `rulesets/${version}`;

function isObject(v: unknown): v is { [key: string]: Json } {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The submission lines of a JSON Lines match log (header first, footer `end: true` last). */
function logEntries(text: string): {
  header: { [key: string]: Json };
  entries: { seq: number; events: GameEvent[] }[];
} {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) throw new Error('the log is empty');
  const rows = lines.map((l, i) => {
    try {
      const v: unknown = JSON.parse(l);
      if (!isObject(v)) throw new Error('not a JSON object');
      return v;
    } catch (err) {
      throw new Error(`line ${i + 1}: ${(err as Error).message}`);
    }
  });
  const entries: { seq: number; events: GameEvent[] }[] = [];
  for (const r of rows.slice(1)) {
    if (typeof r.seq !== 'number' || !Array.isArray(r.events)) continue;
    entries.push({
      seq: r.seq,
      events: r.events.filter((e): e is GameEvent => isObject(e) && typeof e.type === 'string'),
    });
  }
  return { header: rows[0], entries };
}

const beats: RulesetTool = {
  name: 'beats',
  description: 'list the cut beats of a bnc match log (JSON Lines)',
  arguments: [{ name: 'log', description: 'a JSON Lines match log', required: true }],
  options: [{ name: 'json', description: 'one JSON object per beat', type: 'boolean' }],
  run(args, options, io) {
    let log;
    try {
      log = logEntries(io.readText(args[0]));
    } catch (err) {
      io.err(`beats: cannot read ${args[0]}: ${(err as Error).message}\n`);
      return 1;
    }
    const list = beatsOf(log.entries);
    for (const b of list) {
      if (options.json) io.out(JSON.stringify(b) + '\n');
      else
        io.out(
          `turn ${String(b.turn).padStart(2)}  seq ${String(b.seq).padStart(4)}  ${b.beat.padEnd(16)} ${JSON.stringify(b.detail)}\n`,
        );
    }
    if (!options.json)
      io.out(
        `${list.length} beats in ${log.entries.length} submissions (${String(log.header.ruleset)} ${String(log.header.version)} seed ${String(log.header.seed)})\n`,
      );
    return 0;
  },
};

const schema: RulesetTool = {
  name: 'schema',
  description:
    'print the JSON Schema of every action and of the config (generated from the definitions the engine validates with)',
  options: [{ name: 'action', description: 'only this action family', type: 'string' }],
  run(_args, options, io) {
    const all = allJsonSchemas();
    const only = options.action;
    if (typeof only === 'string') {
      const one = all.actions[only];
      if (!one) {
        io.err(`schema: no action "${only}" (known: ${Object.keys(all.actions).join(', ')})\n`);
        return 1;
      }
      io.out(JSON.stringify(one, null, 2) + '\n');
    } else io.out(JSON.stringify(all, null, 2) + '\n');
    return 0;
  },
};

/** Writes the release directory of this version locked to `sha`; returns the files written. */
function writeRelease(io: ToolIO, sha: string): string[] {
  const locked: Manifest = { ...MANIFEST, engine_sha: sha };
  const dir = releaseDir(locked.version);
  const files = [`${dir}/manifest.json`, `${dir}/rules.md`];
  io.writeText(files[0], JSON.stringify(locked, null, 2) + '\n');
  io.writeText(files[1], renderRulesPage(locked));
  return files;
}

/**
 * The problems of the committed release directory, if any: its manifest must be this version's
 * with a 40-hex engine commit, and its page exactly what this engine renders for that manifest (a
 * released version is frozen; changing its rules or page means a new version).
 */
export function checkRelease(io: ToolIO): string[] {
  const dir = releaseDir(VERSION);
  let locked: unknown;
  let page: string;
  try {
    locked = JSON.parse(io.readText(`${dir}/manifest.json`));
    page = io.readText(`${dir}/rules.md`);
  } catch (err) {
    return [`${dir} is not released: ${(err as Error).message} (run \`arbiter lock bnc\` and commit ${dir}/)`];
  }
  const problems: string[] = [];
  const m = (locked ?? {}) as Partial<Manifest>;
  for (const key of ['ruleset', 'version', 'seed'] as const)
    if (m[key] !== MANIFEST[key])
      problems.push(
        `${dir}/manifest.json: ${key} is ${JSON.stringify(m[key])}, the engine has ${JSON.stringify(MANIFEST[key])}`,
      );
  if (typeof m.engine_sha !== 'string' || !/^[0-9a-f]{40}$/.test(m.engine_sha))
    problems.push(`${dir}/manifest.json: engine_sha is not a 40-hex commit id`);
  else if (page !== renderRulesPage({ ...MANIFEST, engine_sha: m.engine_sha }))
    problems.push(
      `${dir}/rules.md differs from the page this engine renders for ${VERSION}: a released version is frozen`,
    );
  return problems;
}

const lock: RulesetTool = {
  name: 'lock',
  description: `release ${VERSION}: write ${releaseDir(VERSION)}/manifest.json (with the engine commit) and the published page ${releaseDir(VERSION)}/rules.md; --check verifies the committed release instead`,
  options: [
    { name: 'sha', description: 'the 40-hex engine commit to pin (the CLI passes git HEAD)', type: 'string' },
    {
      name: 'check',
      description: 'verify the committed release directory against this engine; write nothing',
      type: 'boolean',
    },
  ],
  run(_args, options, io) {
    if (options.check) {
      const problems = checkRelease(io);
      for (const p of problems) io.err(`lock --check: ${p}\n`);
      if (problems.length === 0) io.out(`${releaseDir(VERSION)}/ matches this engine (${VERSION})\n`);
      return problems.length === 0 ? 0 : 1;
    }
    const sha = options.sha;
    if (typeof sha !== 'string' || !/^[0-9a-f]{40}$/.test(sha)) {
      io.err('lock: --sha needs a 40-hex commit id\n');
      return 1;
    }
    for (const f of writeRelease(io, sha)) io.out(`wrote ${f}\n`);
    io.out(`${VERSION} locked to engine ${sha}; commit ${releaseDir(VERSION)}/\n`);
    return 0;
  },
};

export const tools: RulesetTool[] = [beats, schema, lock];
