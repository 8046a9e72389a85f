// [WEB-A11Y-ALL] (issue 26 item 11): axe over every page at two widths, the gallery taken on the
// way (when asked). Registered last on the rig of test/web/browser.test.ts.

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
