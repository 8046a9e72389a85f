// [WEB-A11Y-ALL] (issue 26 item 11): axe over every page at two widths, the gallery taken on the
// way. The longest single browser test, so it has an entry of its own
// (test/web/browser-a11y.test.ts) that runs beside the others (issue 24).

import { test } from 'node:test';
import { siteForSpecs, type Site } from './boards-support.ts';
import { axeEverywhere } from './usability.ts';

let site: Site;
const missing = siteForSpecs((s) => {
  site = s;
});

test(
  '[WEB-A11Y-ALL] issue 26 item 11: no axe violation of any impact on the lobby, a rules page, every board and the viewer, desktop and 360 px',
  {
    skip: missing ?? false,
  },
  () => axeEverywhere(site),
);
