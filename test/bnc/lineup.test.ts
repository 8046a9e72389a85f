// BNC-LINEUP-01: what "scarcity stated" puts in the prompt. The seed names the contestant policy
// llm-mixed-provider-scarcity-stated-v1 and leaves its text open; the catalog records the default,
// and the shipped line-up must state exactly that text to every seat. No scenario can reach a
// prompt, so this provisional test is the item's reproduction (src/runners/coverage.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { bncPackage } from '../../packages/engine/src/rulesets/bnc/index.ts';
import { lineupSeats, loadLineup } from '../../src/agents/lineup.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const item = bncPackage.ruleset.catalog.uItems.find((u) => u.id === 'BNC-LINEUP-01');

test('[BNC-LINEUP-01] (provisional) every seat of the shipped line-up states the scarcity text the catalog records, word for word', () => {
  assert.ok(item, 'the bnc catalog carries BNC-LINEUP-01');
  assert.equal(item.reproduction, 'test/bnc/lineup.test.ts');
  const quoted = /"(Scarcity:[^"]+)"/.exec(item.default)?.[1];
  assert.ok(quoted, 'the default quotes the statement');
  const lineup = loadLineup('llm-mixed-provider-scarcity-stated-v1', 'bnc');
  const seats = lineupSeats(lineup, 4);
  const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
  for (const s of seats) {
    assert.ok('llm' in s, 'every seat is a model contestant');
    assert.deepEqual(s.llm.statements?.map(flat), [flat(quoted)], 'the same statement, and only it, for every seat');
  }
  // docs/agents.md describes the same default
  const doc = flat(readFileSync(resolve(ROOT, 'docs/agents.md'), 'utf8'));
  assert.ok(doc.includes(flat(quoted)), 'docs/agents.md quotes the same text');
  // the facts it states are the ruleset's own: three fragments, four contestants
  assert.equal(bncPackage.ruleset.defaultConfig.contestants, 4);
});
