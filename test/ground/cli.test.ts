import { test } from 'node:test';
import assert from 'node:assert/strict';
import { editionReport } from '../../src/cli/commands/ground.ts';
import { SAMPLE_EDITION, type Edition } from '../../src/rulesets/ground/edition.ts';

test('[GR-E01] ground-edition reports value in play against each threshold and flags an unreachable one', () => {
  const ok = editionReport(SAMPLE_EDITION);
  assert.match(ok, /kitchen-table .*2p 6\/5, 3p 9\/7, 4p 9\/7, 5p 12\/9, 6p 12\/9/);
  assert.doesNotMatch(ok, /UNREACHABLE/);
  const hard: Edition = JSON.parse(JSON.stringify(SAMPLE_EDITION));
  hard.scenarios[0].thresholds['2'] = 7;
  assert.match(editionReport(hard), /2p 6\/7 UNREACHABLE/);
});
