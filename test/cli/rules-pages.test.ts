// The committed rules pages under docs/rules/ are exactly what `arbiter rules RULESET` prints.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PACKAGES } from '../../packages/engine/src/registry.ts';
import { rulesPagePath } from '../../src/cli/core/packages.ts';

for (const pkg of PACKAGES) {
  const id = pkg.ruleset.id;
  test(`docs/rules/${id}.md equals the generated page (fix: node bin/arbiter.js rules ${id} --write)`, () => {
    assert.equal(readFileSync(rulesPagePath(id, process.cwd()), 'utf8'), pkg.rulesPage());
  });
}
