// The browser suite's second entry: the boards spec (the longest, with the axe sweep of every page)
// in a process of its own, with its own `arbiter serve` and Chromium, so the test runner can run it
// beside test/web/browser.test.ts (one rig per entry instead of one per spec file; issue 24).
// Without /usr/bin/chromium it prints one `skipped: chromium not installed` line.

import { after } from 'node:test';
import { chromiumInstalled, closeSharedRig } from './support.ts';

if (!chromiumInstalled()) console.log('skipped: chromium not installed');
else {
  await import('./boards.spec.ts');
  after(closeSharedRig);
}
