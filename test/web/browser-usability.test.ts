// A browser suite entry: issue 26's page-for-newcomers specs in a process of their own, with their
// own `arbiter serve` and Chromium, so the runner plays them beside the other entries (issue 24).
// Without /usr/bin/chromium it prints one `skipped: chromium not installed` line.

import { browserEntry } from './support.ts';

await browserEntry([() => import('./usability.spec.ts')]);
