// Streaming statistics for simulations: per-game figures are folded in as they arrive and never
// kept, so memory does not grow with the number of games. Every aggregate is plain JSON (it
// crosses worker threads and machines) and merges deterministically: shards of a run are merged
// in shard order, so a run gives the same JSON on one thread, on a pool or on a queue.

/** Count, sum, sum of squares, min and max of one figure. */
export type Moments = { n: number; sum: number; sumsq: number; min: number; max: number };

/**
 * A value → count histogram, exact while it holds at most EXACT_LIMIT distinct values (game
 * figures are mostly small integers); past that it folds into logarithmic buckets of relative
 * width 2% (a DDSketch-style sketch), still mergeable and bounded.
 */
export type Histogram = { exact: boolean; counts: Record<string, number> };

export type Figure = { moments: Moments; hist: Histogram };

const EXACT_LIMIT = 512;
const GAMMA = 1.02;
const LOG_GAMMA = Math.log(GAMMA);

export function newFigure(): Figure {
  return { moments: { n: 0, sum: 0, sumsq: 0, min: Infinity, max: -Infinity }, hist: { exact: true, counts: {} } };
}

function bucketOf(v: number): string {
  if (v === 0) return '0';
  const i = Math.ceil(Math.log(Math.abs(v)) / LOG_GAMMA);
  return (v < 0 ? 'n' : 'p') + i;
}

function bucketValue(key: string): number {
  if (key === '0') return 0;
  const i = Number(key.slice(1));
  // the bucket (γ^(i-1), γ^i] is represented by its midpoint in relative terms
  const v = (2 * GAMMA ** i) / (1 + GAMMA);
  return key[0] === 'n' ? -v : v;
}

function toSketch(h: Histogram): void {
  const counts: Record<string, number> = {};
  for (const [k, c] of Object.entries(h.counts)) {
    const b = bucketOf(Number(k));
    counts[b] = (counts[b] ?? 0) + c;
  }
  h.exact = false;
  h.counts = counts;
}

export function addValue(f: Figure, v: number): void {
  const m = f.moments;
  m.n++;
  m.sum += v;
  m.sumsq += v * v;
  if (v < m.min) m.min = v;
  if (v > m.max) m.max = v;
  const h = f.hist;
  const key = h.exact ? String(v) : bucketOf(v);
  if (h.counts[key] === undefined && h.exact && Object.keys(h.counts).length >= EXACT_LIMIT) {
    toSketch(h);
    addToSketch(h, v);
    return;
  }
  h.counts[key] = (h.counts[key] ?? 0) + 1;
}

function addToSketch(h: Histogram, v: number): void {
  const b = bucketOf(v);
  h.counts[b] = (h.counts[b] ?? 0) + 1;
}

/** Fold `b` into `a` (a is changed). Deterministic for a given order of merges. */
export function mergeFigure(a: Figure, b: Figure): void {
  const m = a.moments;
  const o = b.moments;
  m.n += o.n;
  m.sum += o.sum;
  m.sumsq += o.sumsq;
  if (o.min < m.min) m.min = o.min;
  if (o.max > m.max) m.max = o.max;
  if (a.hist.exact && !b.hist.exact) toSketch(a.hist);
  for (const [k, c] of Object.entries(b.hist.counts)) {
    const key = a.hist.exact ? k : b.hist.exact ? bucketOf(Number(k)) : k;
    a.hist.counts[key] = (a.hist.counts[key] ?? 0) + c;
  }
  if (a.hist.exact && Object.keys(a.hist.counts).length > EXACT_LIMIT) toSketch(a.hist);
}

const round = (v: number) => Math.round(v * 10000) / 10000;

/** The q-quantile (0..1) from the histogram: exact values, or a bucket's representative. */
export function quantile(f: Figure, q: number): number {
  const entries = Object.entries(f.hist.counts)
    .map(([k, c]) => [f.hist.exact ? Number(k) : bucketValue(k), c] as const)
    .sort((x, y) => x[0] - y[0]);
  const n = f.moments.n;
  if (n === 0) return 0;
  const rank = Math.max(1, Math.ceil(q * n));
  let seen = 0;
  for (const [v, c] of entries) {
    seen += c;
    if (seen >= rank) return round(v);
  }
  return round(entries[entries.length - 1][0]);
}

export type FigureSummary = {
  mean: number;
  sd: number;
  min: number;
  max: number;
  p50: number;
  p90: number;
  p99: number;
};

export function summarizeFigure(f: Figure): FigureSummary {
  const m = f.moments;
  if (m.n === 0) return { mean: 0, sd: 0, min: 0, max: 0, p50: 0, p90: 0, p99: 0 };
  const mean = m.sum / m.n;
  const variance = m.n > 1 ? Math.max(0, (m.sumsq - m.n * mean * mean) / (m.n - 1)) : 0;
  return {
    mean: round(mean),
    sd: round(Math.sqrt(variance)),
    min: m.min,
    max: m.max,
    p50: quantile(f, 0.5),
    p90: quantile(f, 0.9),
    p99: quantile(f, 0.99),
  };
}

/** Wilson score interval (95%) for k successes in n trials. */
export function wilson(k: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.959964;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = p + (z * z) / (2 * n);
  const r = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [round(Math.max(0, (c - r) / d)), round(Math.min(1, (c + r) / d))];
}

/**
 * A histogram cut into at most about `maxBins` equal bins, for charts. `discrete` bins hold whole
 * numbers and `hi` is the last value they hold (lo..hi); otherwise a bin is the interval [lo, hi).
 * Past the exact limit the sketch's bucket representatives stand for their values.
 */
export type Binned = { discrete: boolean; bins: [lo: number, hi: number, count: number][] };

/** The smallest step of the form {1, 2, 2.5, 5}·10^k at least `raw` (only 1, 2, 5·10^k when `whole`). */
function niceStep(raw: number, whole: boolean): number {
  if (!(raw > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  const steps = whole ? [1, 2, 5, 10] : [1, 2, 2.5, 5, 10];
  for (const s of steps) if (s * p >= raw * (1 - 1e-12)) return whole ? Math.max(1, Math.round(s * p)) : s * p;
  return 10 * p;
}

export function binFigure(f: Figure, maxBins = 40): Binned {
  const points = Object.entries(f.hist.counts)
    .map(([k, c]) => [f.hist.exact ? Number(k) : bucketValue(k), c] as const)
    .sort((x, y) => x[0] - y[0]);
  if (points.length === 0) return { discrete: true, bins: [] };
  const lo = points[0][0];
  const hi = points[points.length - 1][0];
  const discrete = f.hist.exact && points.every(([v]) => Number.isInteger(v));
  const width = discrete ? niceStep((hi - lo + 1) / maxBins, true) : niceStep((hi - lo) / maxBins, false);
  const start = Math.floor(lo / width) * width;
  // the small epsilon keeps a value sitting on an edge (0.3 with width 0.1) in the bin it starts
  const slot = (v: number) => Math.floor((v - start) / width + 1e-9);
  const counts = new Array<number>(slot(hi) + 1).fill(0);
  for (const [v, c] of points) counts[Math.min(counts.length - 1, slot(v))] += c;
  return {
    discrete,
    bins: counts.map((c, i) => {
      const a = round(start + i * width);
      return [a, discrete ? a + width - 1 : round(start + (i + 1) * width), c];
    }),
  };
}
