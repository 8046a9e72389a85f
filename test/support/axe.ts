// axe-core run inside the page itself: its source is put into a document once (the first scan of
// that document) and `axe.run` answers with violations only. @axe-core/playwright injected the
// source into every frame on every call, ran the rules in parts and finished them in an extra blank
// page each time; the rules and their findings are the same.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

let source: string | null = null;

/** axe-core's browser build, the copy @axe-core/playwright depends on (so no second copy is declared). */
function axeSource(): string {
  if (source === null) {
    const viaPlaywright = createRequire(fileURLToPath(import.meta.resolve('@axe-core/playwright')));
    source = readFileSync(viaPlaywright.resolve('axe-core/axe.min.js'), 'utf8');
  }
  return source;
}

export type AxeImpact = 'minor' | 'moderate' | 'serious' | 'critical';

export interface AxeScanOptions {
  /** Only this part of the page (a CSS selector). */
  within?: string;
  /** Which impacts count: 'serious' (serious and critical, the default) or 'all'. */
  impacts?: 'serious' | 'all';
}

/**
 * Waits until no finite animation of the page is running (the boards fade and flip cells in), so a
 * check of colours or positions sees the settled page; endless ones (a spinner) do not count.
 */
export async function animationsDone(page: Page, timeout = 10_000): Promise<void> {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (a) => a.playState !== 'running' || (a.effect?.getComputedTiming().endTime ?? 0) === Number.POSITIVE_INFINITY,
        ),
    undefined,
    { timeout },
  );
}

/**
 * axe-core's violations on the page once its animations have ended (a text fading or flipping in
 * has, half way, a contrast nobody reads it at), one readable line each (impact, rule, help, the
 * nodes' targets, the first node's failure summary).
 */
export async function axeScan(page: Page, opts: AxeScanOptions = {}): Promise<string[]> {
  await animationsDone(page);
  const loaded = await page.evaluate(() => typeof (globalThis as { axe?: { run?: unknown } }).axe?.run === 'function');
  if (!loaded) await page.evaluate(axeSource());
  const violations = await page.evaluate(async (within) => {
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, o: unknown): Promise<AxeResults> } }).axe;
    const r = await axe.run(within === null ? document : { include: [within] }, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'minor',
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
      summary: v.nodes[0]?.failureSummary ?? '',
    }));
  }, opts.within ?? null);
  const counted =
    opts.impacts === 'all' ? violations : violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  return counted.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(' | ')}) ${v.summary}`.trimEnd());
}

/** The part of axe-core's answer read here. */
interface AxeResults {
  violations: {
    id: string;
    impact?: AxeImpact | null;
    help: string;
    nodes: { target: string[]; failureSummary?: string }[];
  }[];
}
