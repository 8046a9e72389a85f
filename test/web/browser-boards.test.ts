// The browser suite's second entry: the GROUND, bnc and duel boards spec and issue 26's
// page-for-newcomers specs on one `arbiter serve` and one Chromium, beside browser.test.ts's (issue 24).
// Without /usr/bin/chromium it prints one `skipped: chromium not installed` line.

import { browserEntry } from './support.ts';

await browserEntry([() => import('./boards.spec.ts'), () => import('./usability.spec.ts')]);
