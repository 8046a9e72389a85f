// Screenshots of the browser tests, for people to look at: taken only when asked, since a full-page
// PNG costs Chromium and the test process real time and no check reads one. ARBITER_SHOTS=1 writes
// them under test-output/ (ignored by git); ARBITER_GALLERY=1 writes the README's gallery to
// docs/gallery/ (the [WEB-A11Y-ALL] sweep takes it). See docs/web.md.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from '../../scripts/web-build.mjs';

/** Whether screenshots are wanted in this run. */
function shotsWanted(): boolean {
  return process.env.ARBITER_SHOTS === '1';
}

/** A full-page screenshot into test-output/[dir/]name.png when ARBITER_SHOTS=1; nothing otherwise. */
export async function shot(page: Page, name: string, dir = ''): Promise<void> {
  if (!shotsWanted()) return;
  const into = join(ROOT, 'test-output', dir);
  mkdirSync(into, { recursive: true });
  await page.screenshot({ path: join(into, `${name}.png`), fullPage: true });
}

/**
 * A gallery picture: into docs/gallery/ when ARBITER_GALLERY=1 (committed, the README shows it), into
 * test-output/gallery/ when ARBITER_SHOTS=1, else none.
 */
export async function galleryShot(page: Page, name: string): Promise<void> {
  if (process.env.ARBITER_GALLERY === '1') {
    const into = join(ROOT, 'docs', 'gallery');
    mkdirSync(into, { recursive: true });
    await page.screenshot({ path: join(into, `${name}.png`), fullPage: true });
  } else await shot(page, name, 'gallery');
}
