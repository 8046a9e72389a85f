// validate runs no transition (issue 9: mines no longer dry-runs every accepted action on a copy):
// it reaches A2 only through the read-only checkIntent, which spends nothing and opens nothing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../../packages/engine/src/kernel/index.ts';
import { mines } from '../../packages/engine/src/rulesets/mines/index.ts';

const dir = join(import.meta.dirname, '../../packages/engine/src/rulesets/mines');

test('[R5, R9] validate imports no transition: only checkIntent and checkInvariants from A2, nothing from rules, setup or the orchestrator', () => {
  const src = readFileSync(join(dir, 'menu.ts'), 'utf8');
  const imports = [...src.matchAll(/import (?:type )?\{([^}]*)\} from '([^']+)'/g)].map(
    (m) =>
      [
        m[2],
        m[1]
          .split(',')
          .map((x) => x.trim().replace(/^type /, ''))
          .filter(Boolean),
      ] as const,
  );
  for (const [from] of imports)
    assert.doesNotMatch(from, /rules\.ts|setup\.ts|orchestrator/, `menu.ts imports ${from}`);
  const engine = imports.find(([from]) => from === './board/engine.ts');
  assert.deepEqual(engine?.[1], ['checkIntent', 'checkInvariants']);
  const eng = readFileSync(join(dir, 'board/engine.ts'), 'utf8');
  const body = (name: string) => {
    const start = eng.indexOf(`function ${name}(`);
    return eng.slice(start, eng.indexOf('\n}\n', start));
  };
  for (const fn of ['checkIntent', 'refusal', 'checkInvariants']) {
    assert.doesNotMatch(
      body(fn),
      /settleBatch|execute\(|trySpend\(|chainOpen|chainSafeCount|requestDig|requestStop|judgeFlags|cover\[[^\]]+\] =/,
      `${fn} must only read`,
    );
  }
});

test('[R5, EC9] validate leaves the state byte-identical, accepted or refused', () => {
  const s = mines.setup({ board: 'b_spawn' }, 1);
  const before = canonicalJson(s);
  for (const a of [
    { type: 'dig', cell: [2, 2] },
    { type: 'dig', cell: [0, 0] },
    { type: 'dig', cell: [-1, 9] },
    {
      type: 'batch',
      intents: [
        { type: 'move', cell: [2, 3] },
        { type: 'dig', cell: [1, 3] },
      ],
    },
    { type: 'stop' },
    { type: 'refresh' },
  ]) {
    mines.validate!(s, 0, a);
    assert.equal(canonicalJson(s), before, JSON.stringify(a));
  }
});
