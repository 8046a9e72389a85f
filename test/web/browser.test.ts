// The browser suite's first entry: one `arbiter serve` and one Chromium for the browser specs below
// (each person a context of its own), instead of a server and a browser per test file (issue 24
// item 2). The boards spec is the second entry (browser-boards.test.ts), so both cores run browsers.
// The specs are modules that register their tests when imported; support.ts's sharedRig starts the
// rig on the first spec's `before`, and the `after` below closes it once every spec has run.
// Without /usr/bin/chromium the suite prints one `skipped: chromium not installed` line.

import { after } from 'node:test';
import { chromiumInstalled, closeSharedRig } from './support.ts';

if (!chromiumInstalled()) console.log('skipped: chromium not installed');
else {
  await import('./pages.spec.ts');
  await import('./mines-board.spec.ts');
  await import('./ground-secrecy.spec.ts');
  after(closeSharedRig);
}
