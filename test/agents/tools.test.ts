// Model tools read the declared action families: a finite family's parameters are its declared
// schema narrowed to the values on the menu this turn (issue 28).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toolsForMenu } from '../../src/agents/llm/tools.ts';
import { publishedActions, type JsonObject } from '../../packages/engine/src/kernel/index.ts';
import { duel } from '../../packages/engine/src/rulesets/duel/index.ts';
import { tictactoe } from '../../packages/engine/src/rulesets/tictactoe/index.ts';

test('[LLM-TOOLS-DECLARED] a finite family tool is its declared schema narrowed to this turn’s menu', () => {
  const s = tictactoe.setup({}, 1);
  tictactoe.apply(s, 0, { type: 'mark', cell: 4 }, []);
  const menu = tictactoe.legal(s, 1);
  const [mark] = toolsForMenu(menu, undefined, publishedActions(tictactoe.schemas!));
  assert.equal(mark.name, 'mark');
  // the declared type and range, with only the empty cells allowed now
  assert.deepEqual(mark.parameters.properties, {
    cell: { type: 'integer', minimum: 0, maximum: 8, enum: [0, 1, 2, 3, 5, 6, 7, 8] },
  });
  assert.deepEqual(mark.parameters.required, ['cell']);
});

test('[LLM-TOOLS-DECLARED] a list-valued field keeps its declared schema instead of an empty one', () => {
  const declared = publishedActions(duel.schemas!);
  const menu = {
    actions: [
      { type: 'discard', cards: ['coffee'] },
      { type: 'discard', cards: ['gamble'] },
    ],
  };
  const [discard] = toolsForMenu(menu, undefined, declared);
  const cards = (discard.parameters.properties as JsonObject).cards as JsonObject;
  assert.equal(cards.type, 'array');
  assert.ok(Array.isArray((cards.items as JsonObject).enum), 'card names from the declaration');
});
