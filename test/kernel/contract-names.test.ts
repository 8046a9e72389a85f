// [CONTRACT-NAMES] One name per contract member across the shipped rulesets: the function behind a
// Ruleset member carries the member's own name (`setup`, `apply`, `outcome` ...), so a reader who
// knows the contract finds each part by grep, whichever ruleset it is. A function's `name` is the
// name it was declared with (or the property it was written under, for an inline arrow), so an
// assembly like `apply: applyDecision` shows up here.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PACKAGES } from '../../packages/engine/src/registry.ts';

test('[CONTRACT-NAMES] every ruleset member is implemented by a function of the same name', () => {
  const misnamed: string[] = [];
  for (const pkg of PACKAGES) {
    for (const rs of [pkg.ruleset, ...(pkg.earlier ?? [])]) {
      for (const [member, value] of Object.entries(rs)) {
        if (typeof value === 'function' && value.name !== member) misnamed.push(`${rs.id}.${member} = ${value.name}`);
      }
    }
  }
  assert.deepEqual(misnamed, []);
});
