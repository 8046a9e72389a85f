// A browser suite entry: the GROUND, bnc and duel boards spec in a process of its own, with its own
// `arbiter serve` and Chromium, so the runner plays it beside the other entries (issue 24).
// Without /usr/bin/chromium it prints one `skipped: chromium not installed` line.

import { browserEntry } from './support.ts';

await browserEntry([() => import('./boards.spec.ts')]);
