// The browser tests' Chromium (test/support/chromium.ts) adds its own `--disable-features` after
// playwright-core's; Chromium keeps only the last, so the launch compares the two lists read back
// from the browser's command line and refuses to go on when playwright-core's names a feature the
// added list would switch back on.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DISABLE_FEATURES, droppedFeatures } from '../support/chromium.ts';

test('[CHROMIUM-FEATURES] a feature an earlier --disable-features names and the last one lacks is reported as dropped', () => {
  const line = ['/usr/lib/chromium/chromium', '--disable-features=A,B,C', '--headless', '--disable-features=C,A,X'];
  assert.deepEqual(droppedFeatures(line), ['B']);
  assert.deepEqual(droppedFeatures(['--disable-features=A,B', '--disable-features=B,A']), []);
  // one list, or none: nothing is overridden
  assert.deepEqual(droppedFeatures(['--disable-features=A']), []);
  assert.deepEqual(droppedFeatures(['--headless']), []);
  // playwright-core's list, then ours: nothing of playwright-core's 1.65 list is lost
  const playwright = '--disable-features=AvoidUnnecessaryBeforeUnloadCheckSync,HttpsUpgrades,PaintHolding,AimEnabled';
  assert.deepEqual(droppedFeatures([playwright, DISABLE_FEATURES]), []);
  assert.deepEqual(droppedFeatures([playwright, '--disable-features=WebUIOmniboxPopup']), [
    'AvoidUnnecessaryBeforeUnloadCheckSync',
    'HttpsUpgrades',
    'PaintHolding',
    'AimEnabled',
  ]);
});
