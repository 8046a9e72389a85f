// Launching Debian's Chromium for the browser tests without the omnibox popup that headless Chromium
// (since the WebUI omnibox) loads for every window, that is for every browser context a test opens:
// a renderer process per context that nothing here uses. Left on, it cost the browser suite's two
// files about 20 and 15 CPU s of Chromium's (all its processes sampled, issue 24), most of which
// the runner's per-file CPU never showed: those renderers are not children the test process waits for.
//
// Chromium keeps only the last `--disable-features` of its command line, and playwright-core puts
// its own list first: the list here repeats playwright-core's and adds the omnibox features. When
// a playwright-core upgrade disables a feature this list lacks, the launch fails and names it, so
// the upgrade cannot quietly switch playwright-core's choices back on.

import { chromium, type Browser } from 'playwright-core';
import { commandLines } from '../../scripts/test-leftovers.mjs';

export const CHROMIUM = '/usr/bin/chromium';

/** What playwright-core 1.65 disables (its chromiumSwitches), which a later list would drop. */
const PLAYWRIGHT_DISABLED = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/** The omnibox popup's WebUI: nobody types into an address bar in a headless test. */
const OMNIBOX_POPUP = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

export const DISABLE_FEATURES = `--disable-features=${[...PLAYWRIGHT_DISABLED, ...OMNIBOX_POPUP].join(',')}`;

/**
 * The features an earlier `--disable-features` of the command line `args` names that the last one
 * does not: what Chromium would no longer disable.
 */
export function droppedFeatures(args: readonly string[]): string[] {
  const lists = args.filter((a) => a.startsWith('--disable-features=')).map((a) => a.split('=')[1].split(','));
  const last = new Set(lists.at(-1) ?? []);
  return lists
    .slice(0, -1)
    .flat()
    .filter((f) => f !== '' && !last.has(f));
}

/** The command line of the process started with `marker` among its arguments; null without /proc. */
function commandLineWith(marker: string): string[] | null {
  return commandLines()?.find((p) => p.args.includes(marker))?.args ?? null;
}

/**
 * Chromium with `args` and the feature list above. Throws (and closes it) when the browser's own
 * command line shows playwright-core disabling a feature the list above lacks.
 */
export async function launchChromium(args: readonly string[]): Promise<Browser> {
  // Chromium ignores switches it does not know: this one finds the browser process under /proc
  const marker = `--arbiter-test-browser=${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...args, DISABLE_FEATURES, marker] });
  const line = commandLineWith(marker);
  const dropped = line ? droppedFeatures(line) : [];
  if (dropped.length > 0) {
    await browser.close().catch(() => undefined);
    throw new Error(
      `playwright-core disables ${dropped.join(', ')}, which test/support/chromium.ts's list does not repeat (Chromium keeps only the last --disable-features): add them to PLAYWRIGHT_DISABLED`,
    );
  }
  return browser;
}
