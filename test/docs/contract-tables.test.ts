// Docs match the code: the contract tables in docs/architecture.md and the guide list every member
// of the package-facing types, and nothing that is not a member any more. Members are read from the
// sources with the TypeScript parser; a table belongs to the type its nearest heading names in
// backticks, and its first column names members in backticks (`setup(config, seed)`, `secrets?`).
// Where a table has a `required` column, it must agree with the member's `?`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const ROOT = process.cwd();

/** The documented types, where they are declared. */
const TYPES: Record<string, string> = {
  Ruleset: 'packages/engine/src/kernel/contract.ts',
  RulesetPackage: 'packages/engine/src/kernel/package.ts',
  GameType: 'packages/engine/src/kernel/package.ts',
  AgentEntry: 'packages/engine/src/kernel/package.ts',
  RulesetTool: 'packages/engine/src/kernel/package.ts',
  ToolArgument: 'packages/engine/src/kernel/package.ts',
  ToolOption: 'packages/engine/src/kernel/package.ts',
  ToolIO: 'packages/engine/src/kernel/package.ts',
};

const DOCS = ['docs/architecture.md', 'docs/guide-write-a-ruleset.md'];

/** Member name → optional, for one interface or object type alias. */
function membersOf(file: string, name: string): Map<string, boolean> {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  for (const st of sf.statements) {
    // an interface, or a type alias of an object literal type (records that must be assignable to Json)
    const members = ts.isInterfaceDeclaration(st)
      ? st.members
      : ts.isTypeAliasDeclaration(st) && ts.isTypeLiteralNode(st.type)
        ? st.type.members
        : null;
    const declared = ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) ? st.name.text : null;
    if (members && declared === name) {
      const out = new Map<string, boolean>();
      for (const m of members) {
        if (!m.name || !(ts.isIdentifier(m.name) || ts.isStringLiteral(m.name))) continue;
        out.set(m.name.text, m.questionToken !== undefined);
      }
      return out;
    }
  }
  throw new Error(`${name} is not an interface or object type alias in ${file}`);
}

interface DocTable {
  type: string;
  line: number;
  /** member → the row's `required` cell (lower case), or null without such a column */
  rows: Map<string, string | null>;
}

/** Tables whose nearest heading names one of TYPES in backticks. */
function tablesOf(markdown: string): DocTable[] {
  const lines = markdown.split('\n');
  const out: DocTable[] = [];
  let heading = '';
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.startsWith('```')) inFence = !inFence;
    if (inFence) continue;
    if (/^#{1,6}\s/.test(l)) heading = l;
    if (!(l.startsWith('|') && lines[i + 1]?.startsWith('|---'))) continue;
    const type = [...heading.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]).find((t) => t in TYPES);
    const cells = (row: string) =>
      row
        .replace(/\\\|/g, '\u0000')
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
    const head = cells(l).map((c) => c.toLowerCase());
    const req = head.indexOf('required');
    const rows = new Map<string, string | null>();
    let j = i + 2;
    for (; j < lines.length && lines[j].startsWith('|'); j++) {
      const c = cells(lines[j]);
      for (const m of c[0].matchAll(/`([A-Za-z_]+)[^`]*`/g)) rows.set(m[1], req >= 0 ? c[req].toLowerCase() : null);
    }
    if (type) out.push({ type, line: i + 1, rows });
    i = j - 1;
  }
  return out;
}

for (const doc of DOCS) {
  test(`${doc}: one table per contract type, listing exactly its members`, () => {
    const tables = tablesOf(readFileSync(join(ROOT, doc), 'utf8'));
    for (const [type, file] of Object.entries(TYPES)) {
      const found = tables.filter((t) => t.type === type);
      assert.equal(
        found.length,
        1,
        `${doc}: expected one table under a heading naming \`${type}\`, got ${found.length}`,
      );
      const [table] = found;
      const members = membersOf(file, type);
      const missing = [...members.keys()].filter((m) => !table.rows.has(m));
      const stale = [...table.rows.keys()].filter((m) => !members.has(m));
      assert.deepEqual(missing, [], `${doc}:${table.line}: \`${type}\` members missing from the table`);
      assert.deepEqual(stale, [], `${doc}:${table.line}: \`${type}\` table names members the type does not have`);
      for (const [m, req] of table.rows) {
        if (req === null) continue;
        const optional = members.get(m)!;
        assert.equal(
          req.startsWith('yes'),
          !optional,
          `${doc}:${table.line}: \`${type}.${m}\` is ${optional ? 'optional' : 'required'} but the table says "${req}"`,
        );
      }
    }
  });
}

test('the table reader sees members, optional marks and escaped pipes, and skips code fences', () => {
  const md = [
    '## `Ruleset`',
    '',
    '| member | required | job |',
    '|---|---|---|',
    '| `id`, `version` | yes | identity |',
    '| `view(state, seat \\| null)` | yes | a view |',
    '| `secrets?` | no | hidden values |',
    '',
    '```',
    '| `fake` | yes | inside a fence |',
    '```',
  ].join('\n');
  const [t] = tablesOf(md);
  assert.equal(t.type, 'Ruleset');
  assert.deepEqual(
    [...t.rows],
    [
      ['id', 'yes'],
      ['version', 'yes'],
      ['view', 'yes'],
      ['secrets', 'no'],
    ],
  );
  assert.ok(membersOf('packages/engine/src/kernel/contract.ts', 'Ruleset').get('validate'), 'validate is optional');
  assert.equal(membersOf('packages/engine/src/kernel/contract.ts', 'Ruleset').get('apply'), false);
});

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|md|mjs|js)$/.test(name)) out.push(p);
  }
  return out;
}

test('every repository document cited in sources and docs exists; nothing cites a DESIGN.md', () => {
  const files = [
    ...walk(join(ROOT, 'src')),
    ...walk(join(ROOT, 'bench')),
    ...walk(join(ROOT, 'scripts')),
    ...walk(join(ROOT, 'docs')),
    join(ROOT, 'README.md'),
  ];
  const bad: string[] = [];
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const rel = f.slice(ROOT.length + 1);
    if (/DESIGN\.md/.test(text)) bad.push(`${rel}: cites DESIGN.md (the repository has none)`);
    for (const m of text.matchAll(/(?<![\w./-])((?:docs|src)\/[\w./-]+\.md)\b/g))
      if (!existsSync(join(ROOT, m[1]))) bad.push(`${rel}: cites ${m[1]}, which does not exist`);
  }
  assert.deepEqual(bad, []);
});
