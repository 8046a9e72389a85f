// A browser suite entry: the axe sweep of every page ([WEB-A11Y-ALL]) in a process of its own, with
// its own `arbiter serve` and Chromium, so the runner plays it beside the other entries (issue 24).
// Without /usr/bin/chromium it prints one `skipped: chromium not installed` line.

import { browserEntry } from './support.ts';

await browserEntry([() => import('./a11y.spec.ts')]);
