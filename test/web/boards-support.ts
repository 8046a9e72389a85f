// What the board browser tests add to the shared rig (support.ts: the built page, a real server,
// one Chromium): matches made through the public API and a page per seat or spectator.

import { before } from 'node:test';
import type { Page } from 'playwright-core';
import { call } from '../server/helpers.ts';
import { chromiumInstalled, sharedRig, type WebRig } from './support.ts';

export { overflowsX } from './support.ts';

/** The one line a test prints when it cannot run here; null when it can. */
function browserMissing(): string | null {
  return chromiumInstalled() ? null : 'skipped: chromium not installed';
}

export type Site = { rig: WebRig; api: string };

async function openSite(): Promise<Site> {
  const rig = await sharedRig();
  return { rig, api: `${rig.url}/api` };
}

/**
 * The suite's one site (built page, server, browser; support.ts's sharedRig), handed to `use`
 * before the calling module's tests. Returns the skip line when Chromium is missing (and then
 * starts nothing).
 */
export function siteForSpecs(use: (site: Site) => void): string | null {
  const missing = browserMissing();
  if (missing) {
    console.log(missing);
    return missing;
  }
  before(async () => {
    use(await openSite());
  });
  return null;
}

/** A match made through the API, with seat `join` joined (its token) — seats: `{}` open, `{agent}` built in. */
export async function newMatch(
  site: Site,
  body: { ruleset: string; config?: unknown; seed?: number; seats: unknown[]; agentDelayMs?: number },
  join?: number,
): Promise<{ id: string; token: string | null }> {
  const m = await call(site.api, 'POST', '/matches', body);
  if (m.status !== 201) throw new Error(`match not created: ${JSON.stringify(m.body)}`);
  const id: string = m.body.id;
  if (join === undefined) return { id, token: null };
  const j = await call(site.api, 'POST', `/matches/${id}/join`, { name: `p${join}`, seat: join });
  if (j.status !== 201) throw new Error(`not joined: ${JSON.stringify(j.body)}`);
  return { id, token: j.body.token };
}

const pageErrors = new WeakMap<Page, string[]>();

/** The match page for a seat (token) or a spectator (no token), in a fresh browser context. */
export async function openMatch(
  site: Site,
  id: string,
  token: string | null,
  opts: { width?: number; height?: number } = {},
): Promise<Page> {
  const { page, errors } = await site.rig.person({ width: opts.width ?? 1100, height: opts.height ?? 900 });
  pageErrors.set(page, errors);
  const hash = token ? `#token=${encodeURIComponent(token)}` : '';
  await page.goto(`/match/${encodeURIComponent(id)}${hash}`);
  return page;
}

/** Uncaught errors and console errors the page has logged so far. */
export function errorsOf(page: Page): string[] {
  return pageErrors.get(page) ?? [];
}
