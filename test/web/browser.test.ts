// The browser suite's first entry: one `arbiter serve` and one Chromium for the specs below (each
// person a context of its own; the report route's spec of test/report/ too), instead of a server
// and a browser per spec (issue 24 item 2). The suite has two entries of about the same length
// (this one and browser-boards.test.ts), so the runner plays the two browsers side by side: their
// time is mostly spent waiting on the page and on paced matches.
// Without /usr/bin/chromium it prints one `skipped: chromium not installed` line.

import { browserEntry } from './support.ts';

await browserEntry([
  () => import('./pages.spec.ts'),
  () => import('./mines-board.spec.ts'),
  () => import('./ground-secrecy.spec.ts'),
  () => import('../report/web-page.spec.ts'),
  () => import('./a11y.spec.ts'),
]);
