// The browser suite's first entry: one `arbiter serve` and one Chromium for the specs below (each
// person a context of its own; the report route's spec of test/report/ too), instead of a server
// and a browser per spec (issue 24 item 2). The
// other entries (browser-boards, browser-usability, browser-a11y) each hold one longer spec, so the
// runner plays browsers side by side; their time is mostly spent waiting on the page.
// Without /usr/bin/chromium it prints one `skipped: chromium not installed` line.

import { browserEntry } from './support.ts';

await browserEntry([
  () => import('./pages.spec.ts'),
  () => import('./mines-board.spec.ts'),
  () => import('./ground-secrecy.spec.ts'),
  () => import('../report/web-page.spec.ts'),
]);
