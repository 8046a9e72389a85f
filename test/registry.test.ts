// The registry takes extra packages without editing packages/engine/src/registry.ts, and refuses a taken id.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArbiterError } from '../packages/engine/src/kernel/index.ts';
import { PACKAGES, withPackages } from '../packages/engine/src/registry.ts';
import { tictactoePackage } from '../packages/engine/src/rulesets/tictactoe/index.ts';

test('withPackages adds packages after the shipped ones and looks them up by id', () => {
  const copy = { ...tictactoePackage, ruleset: { ...tictactoePackage.ruleset, id: 'tictactoe-copy' } };
  const reg = withPackages([copy]);
  assert.equal(reg.packages.length, PACKAGES.length + 1);
  assert.equal(reg.get('tictactoe-copy'), copy);
  assert.equal(reg.get('tictactoe'), tictactoePackage);
  assert.deepEqual(reg.ids().slice(-1), ['tictactoe-copy']);
  assert.throws(
    () => reg.get('nope'),
    (e: unknown) => e instanceof ArbiterError && e.code === 'not_found',
  );
  // the shipped list is untouched
  assert.ok(!PACKAGES.includes(copy));
});

test('withPackages refuses an id that is already registered', () => {
  assert.throws(
    () => withPackages([tictactoePackage]),
    (e: unknown) => e instanceof ArbiterError && e.code === 'bad_config' && /already registered/.test(e.message),
  );
});
