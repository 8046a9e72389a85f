// The charts of a simulation or tournament report, drawn with Observable Plot into whatever
// `document` the caller gives: linkedom's on the server (`sim --html`, `tournament --html`), the
// page's own in a browser (web/src/report). Nothing here touches Node or the network, so the same
// code draws the same SVG in both places.
//
// Every chart comes with a table of its figures. Each figure cell carries the JSON path of the
// number in the report it was drawn from and that number unrounded, so a test (or a reader with
// a screen reader) gets the exact values, and no chart depends on colour: bars are read by their
// length and printed value, intervals by black whiskers, shares by the number in each cell.

import * as Plot from '@observablehq/plot';
import { wilson, type Binned, type FigureSummary } from '../runners/aggregate.ts';
import type { SimReport } from '../runners/sim.ts';
import type { TournamentReport } from '../runners/tournament.ts';

/** One cell of a figures table; `path` and `value` point back into the report JSON. */
export type Cell = { text: string; path?: (string | number)[]; value?: number };
export type Table = { caption: string; head: string[]; rows: Cell[][]; collapsed?: boolean };
/** `figure`: one number in large print (a headline), drawn above the chart when there is one. */
export type Chart = { id: string; title: string; note?: string; figure?: string; svg?: Element; tables: Table[] };
export type Section = { id: string; title: string; intro?: string; charts: Chart[]; collapsed?: boolean };
export type ReportView = { title: string; facts: [string, Cell][]; sections: Section[] };

/** Charts are drawn this wide: a 360 px phone shows them unscaled, so the 12 px labels stay 12 px. */
const CHART_WIDTH = 320;
const BAR = '#9ebfe6';
const BAR_EDGE = '#24548c';
const INK = '#111111';
/** Room under the x axis for its tick labels and, on a line of its own, its title. */
const BOTTOM = 42;
const LABEL_OFFSET = 38;

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
/** A figure for reading: at most two decimals; the table cell keeps the exact value. */
const num = (v: number) => (Number.isInteger(v) ? String(v) : String(Math.round(v * 100) / 100));
const n = (v: number, path: (string | number)[], text = num(v)): Cell => ({ text, path, value: v });
const t = (text: string): Cell => ({ text });

function finish(svg: Element, label: string): Element {
  // the table beside each chart carries the figures; the picture itself is one labelled image
  svg.setAttribute('role', 'img');
  // Plot names its groups ("y-axis tick"); inside one image those names are not allowed (and not read)
  for (const el of svg.querySelectorAll('[aria-label], [aria-description]')) {
    el.removeAttribute('aria-label');
    el.removeAttribute('aria-description');
  }
  // set here rather than through Plot's `style` option, which linkedom's elements refuse
  svg.setAttribute('font-size', '12');
  svg.setAttribute('aria-label', label);
  return svg;
}

/** Room on the left for band labels of this many characters at 12 px, within a phone-sized chart. */
const leftFor = (labels: string[]) => Math.min(150, 14 + 7 * Math.max(4, ...labels.map((l) => l.length)));
const clip = (s: string, max = 20) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

export type RateRow = { label: string; rate: number; lo: number; hi: number };

/** Horizontal bars of shares in [0, 1] with 95% interval whiskers and the share printed at the whisker's end. */
function rateChart(doc: Document, rows: RateRow[], label: string, xLabel = 'win rate (%)'): Element {
  const data = rows.map((r) => ({ ...r, label: clip(r.label) }));
  const whisker = { stroke: INK, strokeWidth: 1.5 };
  return finish(
    Plot.plot({
      document: doc,
      width: CHART_WIDTH,
      height: 44 + 30 * rows.length,
      marginLeft: leftFor(data.map((r) => r.label)),
      marginRight: 48,
      marginBottom: BOTTOM,
      x: {
        domain: [0, 100],
        percent: true,
        label: xLabel,
        ticks: [0, 25, 50, 75, 100],
        grid: true,
        labelOffset: LABEL_OFFSET,
      },
      y: { domain: data.map((r) => r.label), label: null, padding: 0.3 },
      marks: [
        Plot.barX(data, { x: 'rate', y: 'label', fill: BAR, stroke: BAR_EDGE }),
        Plot.ruleY(data, { y: 'label', x1: 'lo', x2: 'hi', ...whisker }),
        Plot.tickX(data, { x: 'lo', y: 'label', ...whisker, insetTop: 4, insetBottom: 4 }),
        Plot.tickX(data, { x: 'hi', y: 'label', ...whisker, insetTop: 4, insetBottom: 4 }),
        Plot.text(data, { x: 'hi', y: 'label', text: (d: RateRow) => pct(d.rate), dx: 5, textAnchor: 'start' }),
        Plot.ruleX([0], { stroke: INK }),
      ],
    }),
    label,
  );
}

/** Labelled horizontal bars for counts with long names: the name and count sit above each bar. */
function countChart(doc: Document, rows: { name: string; count: number }[], total: number, label: string): Element {
  const data = rows.map((r) => ({ ...r, text: `${r.name}: ${r.count} (${pct(r.count / Math.max(1, total))})` }));
  return finish(
    Plot.plot({
      document: doc,
      width: CHART_WIDTH,
      height: 40 + 40 * rows.length,
      marginLeft: 8,
      marginRight: 16,
      marginBottom: BOTTOM,
      x: {
        domain: [0, Math.max(1, ...rows.map((r) => r.count))],
        label: 'games',
        grid: true,
        ticks: 4,
        labelOffset: LABEL_OFFSET,
      },
      y: { domain: data.map((r) => r.name), axis: null, padding: 0.1 },
      marks: [
        Plot.barX(data, { x: 'count', y: 'name', fill: BAR, stroke: BAR_EDGE, insetTop: 18 }),
        Plot.text(data, { x: 0, y: 'name', text: 'text', textAnchor: 'start', dy: -8, lineWidth: 40 }),
        Plot.ruleX([0], { stroke: INK }),
      ],
    }),
    label,
  );
}

/** Whole-number ticks for a discrete axis from lo to hi, at most about six. */
function wholeTicks(lo: number, hi: number): number[] {
  const span = Math.max(1, hi - lo);
  const raw = span / 6;
  const p = 10 ** Math.floor(Math.log10(Math.max(1, raw)));
  const step = Math.max(1, [1, 2, 5, 10].map((s) => s * p).find((s) => s >= raw) ?? 10 * p);
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) out.push(v);
  return out;
}

/** A histogram of one figure (game length or a metric) with the mean as a dashed line. */
function histogramChart(doc: Document, h: Binned, mean: number, xLabel: string, label: string): Element {
  const rows = h.bins.map(([lo, hi, count]) =>
    h.discrete ? { x1: lo - 0.5, x2: hi + 0.5, count } : { x1: lo, x2: hi, count },
  );
  const lo = h.bins.length ? h.bins[0][0] : 0;
  const x1 = rows.length ? rows[0].x1 : 0;
  const x2 = rows.length ? rows[rows.length - 1].x2 : 1;
  // a figure with one or two values still gets an axis a few values wide (never below 0 for counts)
  const from = Math.min(x1, lo >= 0 ? Math.max(h.discrete ? -0.5 : 0, (x1 + x2) / 2 - 2) : (x1 + x2) / 2 - 2);
  const to = Math.max(x2, from + 4);
  return finish(
    Plot.plot({
      document: doc,
      width: CHART_WIDTH,
      height: 160,
      marginBottom: BOTTOM,
      marginLeft: 48,
      marginRight: 16,
      x: {
        label: xLabel,
        labelOffset: LABEL_OFFSET,
        domain: [from, to],
        ...(h.discrete ? { ticks: wholeTicks(Math.ceil(from), Math.floor(to)), tickFormat: 'd' } : { ticks: 5 }),
      },
      y: { label: 'games', grid: true, ticks: 4, nice: true },
      marks: [
        Plot.rectY(rows, { x1: 'x1', x2: 'x2', y: 'count', fill: BAR, stroke: BAR_EDGE, strokeWidth: 0.5 }),
        Plot.ruleY([0], { stroke: INK }),
        Plot.ruleX([mean], { stroke: INK, strokeWidth: 1.5, strokeDasharray: '5,3' }),
      ],
    }),
    label,
  );
}

/** Each seat's share of each place as a grid with the share printed in every cell. */
function placesChart(doc: Document, seats: string[], share: number[][], label: string): Element {
  const places = share[0]?.map((_, p) => ordinal(p + 1)) ?? [];
  const data = share.flatMap((row, s) => row.map((v, p) => ({ seat: clip(seats[s]), place: places[p], v })));
  return finish(
    Plot.plot({
      document: doc,
      width: CHART_WIDTH,
      height: 40 + 34 * seats.length,
      marginLeft: leftFor(seats.map((s) => clip(s))),
      marginRight: 8,
      x: { domain: places, label: null, axis: 'top' },
      y: { domain: seats.map((s) => clip(s)), label: null },
      // a light range only, so the black figures stay readable on every cell
      color: { type: 'linear', domain: [0, 1], range: ['#ffffff', '#8fb4e0'] },
      marks: [
        Plot.cell(data, { x: 'place', y: 'seat', fill: 'v', stroke: '#6b6b6b', inset: 1 }),
        Plot.text(data, { x: 'place', y: 'seat', text: (d: { v: number }) => pct(d.v), fill: INK }),
      ],
    }),
    label,
  );
}

const ordinal = (k: number) =>
  `${k}${k % 100 >= 11 && k % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][k % 10] ?? 'th')}`;

function summaryTable(caption: string, s: FigureSummary, path: (string | number)[]): Table {
  const keys = ['mean', 'sd', 'min', 'p50', 'p90', 'p99', 'max'] as const;
  return {
    caption,
    head: ['mean', 'sd', 'min', 'median', '90th pct', '99th pct', 'max'],
    rows: [keys.map((k) => n(s[k], [...path, k]))],
  };
}

function binsTable(caption: string, h: Binned, path: (string | number)[]): Table {
  return {
    caption,
    head: [h.discrete ? 'values' : 'interval', 'games'],
    collapsed: true,
    rows: h.bins.map(([lo, hi, c], i) => [
      h.discrete ? t(lo === hi ? num(lo) : `${num(lo)}–${num(hi)}`) : t(`${num(lo)} to under ${num(hi)}`),
      n(c, [...path, 'bins', i, 2]),
    ]),
  };
}

const summaryNote = (s: FigureSummary) =>
  `mean ${num(s.mean)} (dashed line) · median ${num(s.p50)} · 90% of games ≤ ${num(s.p90)} · range ${num(s.min)}–${num(s.max)}`;

/** Seat names as the sim seated them: its agent list cycles over the seats. */
function seatLabels(r: Pick<SimReport, 'agents' | 'win_rate'>): string[] {
  const agents = String(r.agents ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  return r.win_rate.map((_, i) => (agents.length ? `seat ${i} · ${agents[i % agents.length]}` : `seat ${i}`));
}

/** A group of metrics shown together: names with a `prefix:` share a group (`rule:GR-A01`). */
function metricGroups(names: string[]): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const name of names) {
    const i = name.indexOf(':');
    const g = i > 0 ? name.slice(0, i) : '';
    groups.set(g, [...(groups.get(g) ?? []), name]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)));
}

const slug = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '-');

function compactConfig(config: unknown): string {
  // an inline edition or board can be large: show its id (or that it is there) instead of the whole object
  const shown = Object.fromEntries(
    Object.entries((config ?? {}) as Record<string, unknown>).map(([k, v]) => {
      if (v === null || typeof v !== 'object') return [k, v];
      const id = (v as Record<string, unknown>).id;
      return [k, typeof id === 'string' ? `<${k} ${id}>` : JSON.stringify(v).length > 80 ? `<${k}>` : v];
    }),
  );
  return JSON.stringify(shown);
}

/** The charts and tables of a `sim --json` report. */
export function simReportView(r: SimReport, doc: Document): ReportView {
  const seats = seatLabels(r);
  const sections: Section[] = [];
  const hist = r.histograms;

  // a co-operative game (the ruleset says so, and the figures agree: one result for every seat)
  // shows the group's result once instead of identical per-seat bars as if the seats competed
  const together = r.cooperative === true && r.win_rate.length > 0 && r.win_rate.every((w) => w === r.win_rate[0]);
  const outcome: Chart[] = together ? groupOutcome(doc, r) : seatOutcome(doc, r, seats);
  sections.push({ id: 'outcomes', title: together ? 'Outcome of the group' : 'Outcomes', charts: outcome });
  const headline = headlineSection(doc, r);
  if (headline) sections.unshift(headline);

  const reasons = Object.entries(r.reasons);
  const length: Chart[] = [];
  if (hist)
    length.push({
      id: 'actions',
      title: 'Game length',
      note: `Actions per game. ${summaryNote(r.actions)}.`,
      svg: histogramChart(
        doc,
        hist.actions,
        r.actions.mean,
        'actions per game',
        'Histogram of actions per game; the figures are in the tables below',
      ),
      tables: [
        summaryTable('Actions per game', r.actions, ['actions']),
        binsTable('Games by number of actions', hist.actions, ['histograms', 'actions']),
      ],
    });
  else
    length.push({
      id: 'actions',
      title: 'Game length',
      note: `Actions per game. ${summaryNote(r.actions)}. (This report has no histograms: it was written before they were added.)`,
      svg: meanChart(
        doc,
        ['min', 'median', 'mean', 'max'],
        [r.actions.min, r.actions.p50, r.actions.mean, r.actions.max],
        'actions',
        'Actions per game',
      ),
      tables: [summaryTable('Actions per game', r.actions, ['actions'])],
    });
  length.push({
    id: 'endings',
    title: 'How games ended',
    svg: countChart(
      doc,
      reasons.map(([name, count]) => ({ name, count })),
      r.games,
      'Games by how they ended; the figures are in the table below',
    ),
    tables: [
      {
        caption: 'How games ended',
        head: ['ending', 'games'],
        rows: reasons.map(([k, v]) => [t(k), n(v, ['reasons', k])]),
      },
    ],
  });
  sections.push({ id: 'length', title: 'Game length and endings', charts: length });

  // the headline figures are shown first and not again
  const shown = new Set((r.headline ?? []).map((h) => h.metric));
  for (const [group, names] of metricGroups(Object.keys(r.metrics).filter((m) => !shown.has(m)))) {
    if (group === 'rule' && r.rules) {
      sections.push(ruleSection(doc, r, names));
      continue;
    }
    // a figure that never changes is a number, a yes/no figure a share of games: neither a histogram
    const constant = names.filter((m) => r.metrics[m].min === r.metrics[m].max);
    const binary = names.filter((m) => !constant.includes(m) && isBinary(r, m));
    const spread = names.filter((m) => !constant.includes(m) && !binary.includes(m));
    const charts: Chart[] = [];
    if (constant.length) charts.push(constantChart(r, constant));
    if (binary.length) charts.push(binaryChart(doc, r, binary));
    for (const name of spread) {
      const s = r.metrics[name];
      const h = hist?.metrics[name];
      charts.push({
        id: `metric-${slug(name)}`,
        title: name,
        note: summaryNote(s),
        svg: h
          ? histogramChart(doc, h, s.mean, name, `Histogram of ${name} per game; the figures are in the tables below`)
          : meanChart(doc, ['min', 'median', 'mean', 'max'], [s.min, s.p50, s.mean, s.max], name, `${name}`),
        tables: [
          summaryTable(name, s, ['metrics', name]),
          ...(h ? [binsTable(`Games by ${name}`, h, ['histograms', 'metrics', name])] : []),
        ],
      });
    }
    sections.push({
      id: `metrics-${slug(group || 'main')}`,
      title: group ? `Metrics: ${group} (${names.length})` : 'Metrics',
      intro: group
        ? `The ruleset's “${group}:” figures per game.`
        : 'Per-game figures the ruleset reports; a game that does not report one counts as 0.',
      collapsed: group !== '' && names.length > 8,
      charts,
    });
  }

  const facts: [string, Cell][] = [
    // the title names the rules text the game follows; the version is this implementation's own
    // (recorded in every log): GROUND's rules are v0.1 while the ruleset is at ground-0.2-sample
    ...(r.title ? ([['game', t(r.title)]] as [string, Cell][]) : []),
    ['ruleset', t(`${r.ruleset}, version ${r.version}`)],
    ['games', n(r.games, ['games'])],
    ['seeds', t(`${r.first_seed} to ${r.first_seed + r.games - 1}`)],
    ['agents', t(r.agents)],
    ['config', t(compactConfig(r.config))],
    [
      'run',
      t(
        `${r.wall_ms} ms on ${r.threads === 0 ? 'queue workers' : `${r.threads} thread${r.threads === 1 ? '' : 's'}`}, ${r.games_per_s} games/s`,
      ),
    ],
  ];
  return { title: `${r.title ?? r.ruleset} simulation: ${r.games} games`, facts, sections };
}

/** Each seat's own result: win rate, places and mean score by seat (a competitive game). */
function seatOutcome(doc: Document, r: SimReport, seats: string[]): Chart[] {
  const outcome: Chart[] = [
    {
      id: 'win-rate',
      title: 'Win rate by seat',
      note: `Bars: share of games won (a shared win counts for every winner); whiskers: 95% Wilson interval. No winner in ${r.no_winner} of ${r.games} games (${pct(r.no_winner / Math.max(1, r.games))}).`,
      svg: rateChart(
        doc,
        seats.map((label, i) => ({ label, rate: r.win_rate[i], lo: r.win_ci95[i][0], hi: r.win_ci95[i][1] })),
        'Win rate by seat with 95% intervals; the figures are in the table below',
      ),
      tables: [
        {
          caption: 'Win rate by seat',
          head: ['seat', 'win rate', '95% low', '95% high'],
          rows: seats.map((s, i) => [
            t(s),
            n(r.win_rate[i], ['win_rate', i], pct(r.win_rate[i])),
            n(r.win_ci95[i][0], ['win_ci95', i, 0], pct(r.win_ci95[i][0])),
            n(r.win_ci95[i][1], ['win_ci95', i, 1], pct(r.win_ci95[i][1])),
          ]),
        },
      ],
    },
  ];
  if (r.place_share && r.mean_place) {
    const share = r.place_share;
    const meanPlace = r.mean_place;
    outcome.push({
      id: 'places',
      title: 'Places by seat',
      note: 'Each cell: the share of games in which the seat took that place.',
      svg: placesChart(doc, seats, share, 'Share of each place by seat; the figures are in the table below'),
      tables: [
        {
          caption: 'Places by seat',
          head: ['seat', ...share[0].map((_, p) => ordinal(p + 1)), 'mean place'],
          rows: seats.map((s, i) => [
            t(s),
            ...share[i].map((v, p) => n(v, ['place_share', i, p], pct(v))),
            n(meanPlace[i], ['mean_place', i]),
          ]),
        },
      ],
    });
  }
  if (r.mean_score) {
    const scores = r.mean_score;
    outcome.push({
      id: 'scores',
      title: 'Mean score by seat',
      svg: meanChart(doc, seats, scores, 'mean score', 'Mean score by seat; the figures are in the table below'),
      tables: [
        {
          caption: 'Mean score by seat',
          head: ['seat', 'mean score'],
          rows: seats.map((s, i) => [t(s), n(scores[i], ['mean_score', i])]),
        },
      ],
    });
  }
  return outcome;
}

/** Every game gave this figure 0 or 1 (a yes/no figure): its mean is the share of games with a yes. */
function isBinary(r: SimReport, name: string): boolean {
  const s = r.metrics[name];
  const h = r.histograms?.metrics[name];
  if (s.min !== 0 || s.max !== 1) return false;
  // without the histogram a 0..1 range could hold fractions; with it, the bins say which values occur
  return h !== undefined && h.discrete && h.bins.every(([lo, hi]) => (lo === 0 || lo === 1) && hi === lo);
}

const byText = (by: Record<string, string | number>) =>
  Object.entries(by)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

/** The ruleset's declared headline figures, first on the page, each with the config it was measured under. */
function headlineSection(doc: Document, r: SimReport): Section | null {
  const list = (r.headline ?? []).filter((h) => r.metrics[h.metric]);
  if (!list.length) return null;
  const charts = list.map((h): Chart => {
    const s = r.metrics[h.metric];
    const where = byText(h.by);
    const keys = Object.keys(h.by);
    if (isBinary(r, h.metric) || s.min === s.max) {
      const [lo, hi] = wilson(Math.round(s.mean * r.games), r.games);
      return {
        id: `headline-${slug(h.metric)}`,
        title: h.label,
        figure: pct(s.mean),
        note: `${h.note ? `${h.note} ` : ''}${where ? `Measured with ${where}; ` : ''}95% interval ${pct(lo)}–${pct(hi)} over ${r.games} games.`,
        svg: rateChart(
          doc,
          [{ label: h.label, rate: s.mean, lo, hi }],
          `${h.label}: ${pct(s.mean)} of games; the figures are in the table below`,
          'share of games (%)',
        ),
        tables: [
          {
            caption: h.label,
            head: [...keys, 'share of games', '95% low', '95% high'],
            rows: [
              [
                ...keys.map((k) => t(String(h.by[k]))),
                n(s.mean, ['metrics', h.metric, 'mean'], pct(s.mean)),
                t(pct(lo)),
                t(pct(hi)),
              ],
            ],
          },
        ],
      };
    }
    return {
      id: `headline-${slug(h.metric)}`,
      title: h.label,
      figure: num(s.mean),
      note: `${h.note ? `${h.note} ` : ''}Mean per game${where ? ` with ${where}` : ''}. ${summaryNote(s)}.`,
      tables: [summaryTable(h.label, s, ['metrics', h.metric])],
    };
  });
  return {
    id: 'headline',
    title: 'Headline',
    intro:
      'The figures this ruleset names as the ones that matter most, under this run’s config; `arbiter sweep` with a grid over the config values named beside a figure gives it for each of them.',
    charts,
  };
}

/** A co-operative game's result: one share of group wins (every seat has the same) and the shared score. */
function groupOutcome(doc: Document, r: SimReport): Chart[] {
  const rate = r.win_rate[0];
  const [lo, hi] = r.win_ci95[0];
  const scores = r.mean_score;
  const shared = scores && scores.every((v) => v === scores[0]) ? scores[0] : null;
  return [
    {
      id: 'group-result',
      title: 'Games the group won',
      note: `In this mode the seats win or lose together, so every seat has this same result; places and scores by seat are not shown. No winner in ${r.no_winner} of ${r.games} games.`,
      svg: rateChart(
        doc,
        [{ label: 'all seats', rate, lo, hi }],
        'Share of games the group won, with a 95% interval; the figures are in the table below',
      ),
      tables: [
        {
          caption: 'Games the group won',
          head: ['seats', 'win rate', '95% low', '95% high', ...(shared === null ? [] : ['mean shared score'])],
          rows: [
            [
              t(`all ${r.win_rate.length}`),
              n(rate, ['win_rate', 0], pct(rate)),
              n(lo, ['win_ci95', 0, 0], pct(lo)),
              n(hi, ['win_ci95', 0, 1], pct(hi)),
              ...(shared === null ? [] : [n(shared, ['mean_score', 0])]),
            ],
          ],
        },
      ],
    },
  ];
}

/** Figures that were the same in every game, as numbers in one table. */
function constantChart(r: SimReport, names: string[]): Chart {
  return {
    id: 'metrics-constant',
    title: `Same in every game (${names.length})`,
    note: 'These figures did not change from game to game under this config.',
    tables: [
      {
        caption: 'Same in every game',
        head: ['figure', 'value'],
        rows: names.map((m) => [t(m), n(r.metrics[m].mean, ['metrics', m, 'mean'])]),
      },
    ],
  };
}

/** Yes/no figures as the share of games with a yes, with 95% intervals. */
function binaryChart(doc: Document, r: SimReport, names: string[]): Chart {
  const rows = names.map((m) => {
    const [lo, hi] = wilson(Math.round(r.metrics[m].mean * r.games), r.games);
    return { label: m, rate: r.metrics[m].mean, lo, hi };
  });
  return {
    id: 'metrics-binary',
    title: `Yes or no per game (${names.length})`,
    note: 'Each figure is 1 or 0 in every game: the bar is the share of games where it was 1; whiskers: 95% Wilson interval.',
    svg: rateChart(
      doc,
      rows,
      'Share of games for each yes/no figure; the figures are in the table below',
      'share of games (%)',
    ),
    tables: [
      {
        caption: 'Yes or no per game',
        head: ['figure', 'share of games', '95% low', '95% high'],
        rows: rows.map((x) => [
          t(x.label),
          n(x.rate, ['metrics', x.label, 'mean'], pct(x.rate)),
          t(pct(x.lo)),
          t(pct(x.hi)),
        ]),
      },
    ],
  };
}

/** How often each catalogued rule was applied per game, one chart per section of the rules. */
function ruleSection(doc: Document, r: SimReport, names: string[]): Section {
  const rules = r.rules ?? {};
  const families = new Map<string, string[]>();
  for (const name of names) {
    const family = rules[name.slice(5)]?.group ?? 'Not in the catalog';
    families.set(family, [...(families.get(family) ?? []), name]);
  }
  const charts = [...families.entries()].map(([family, list]): Chart => {
    const fired = list.filter((m) => r.metrics[m].max > 0);
    const idle = list.filter((m) => r.metrics[m].max === 0).map((m) => m.slice(5));
    return {
      id: `rules-${slug(family)}`,
      title: `${family} (${list.length} rules)`,
      note: `Mean times applied per game.${idle.length ? ` Never applied in these games: ${idle.join(', ')}.` : ''}`,
      ...(fired.length
        ? {
            svg: meanChart(
              doc,
              fired.map((m) => m.slice(5)),
              fired.map((m) => r.metrics[m].mean),
              'times per game',
              `${family}: mean times each rule was applied per game; the rules and figures are in the table below`,
            ),
          }
        : {}),
      tables: [
        {
          caption: `${family}: rules applied`,
          head: ['rule', 'what it says', 'mean per game', 'most in a game'],
          collapsed: true,
          rows: list.map((m) => [
            t(m.slice(5)),
            t(rules[m.slice(5)]?.summary ?? '(not in the catalog)'),
            n(r.metrics[m].mean, ['metrics', m, 'mean']),
            n(r.metrics[m].max, ['metrics', m, 'max']),
          ]),
        },
      ],
    };
  });
  return {
    id: 'metrics-rule',
    title: `Rules applied (${names.length})`,
    intro:
      'How often each rule of the catalog was applied per game (counted from the rule each event names), grouped by the section of the rules it belongs to; each table gives what the rule says.',
    collapsed: true,
    charts,
  };
}

/** Plain horizontal bars for a value per row (scores can be negative: the zero line is drawn). */
function meanChart(doc: Document, labels: string[], values: number[], xLabel: string, label: string): Element {
  const data = labels.map((l, i) => ({ label: clip(l), v: values[i] }));
  return finish(
    Plot.plot({
      document: doc,
      width: CHART_WIDTH,
      height: 44 + 30 * labels.length,
      marginLeft: leftFor(data.map((d) => d.label)),
      marginRight: 48,
      marginBottom: BOTTOM,
      // zero is always on the axis (bars start there); all-zero figures still get a readable axis
      x: {
        label: xLabel,
        grid: true,
        ticks: 4,
        nice: true,
        labelOffset: LABEL_OFFSET,
        domain: [Math.min(0, ...values), Math.max(0, ...values) || 1],
      },
      y: { domain: data.map((d) => d.label), label: null, padding: 0.3 },
      marks: [
        Plot.barX(data, { x: 'v', y: 'label', fill: BAR, stroke: BAR_EDGE }),
        Plot.text(data, {
          x: 'v',
          y: 'label',
          text: (d: { v: number }) => num(d.v),
          dx: 5,
          textAnchor: 'start',
        }),
        Plot.ruleX([0], { stroke: INK }),
      ],
    }),
    label,
  );
}

/** The charts and tables of a tournament report: win rate with intervals and the ratings. */
export function tournamentReportView(r: TournamentReport, doc: Document): ReportView {
  const names = r.standings.map((s) => s.agent);
  const charts: Chart[] = [
    {
      id: 'win-rate',
      title: 'Win rate by agent',
      note: 'Bars: share of its games an agent won, over every line-up and seat; whiskers: 95% Wilson interval.',
      svg: rateChart(
        doc,
        r.standings.map((s) => ({ label: s.agent, rate: s.win_rate, lo: s.win_ci95[0], hi: s.win_ci95[1] })),
        'Win rate by agent with 95% intervals; the figures are in the table below',
      ),
      tables: [
        {
          caption: 'Standings',
          head: ['agent', 'games', 'wins', 'win rate', '95% low', '95% high', 'mean place', 'mu', 'sigma', 'ordinal'],
          rows: r.standings.map((s, i) => [
            t(s.agent),
            n(s.games, ['standings', i, 'games']),
            n(s.wins, ['standings', i, 'wins']),
            n(s.win_rate, ['standings', i, 'win_rate'], pct(s.win_rate)),
            n(s.win_ci95[0], ['standings', i, 'win_ci95', 0], pct(s.win_ci95[0])),
            n(s.win_ci95[1], ['standings', i, 'win_ci95', 1], pct(s.win_ci95[1])),
            s.mean_place === null ? t('–') : n(s.mean_place, ['standings', i, 'mean_place']),
            n(s.mu, ['standings', i, 'mu']),
            n(s.sigma, ['standings', i, 'sigma']),
            n(s.ordinal, ['standings', i, 'ordinal']),
          ]),
        },
      ],
    },
    {
      id: 'rating',
      title: 'Rating by agent',
      note: 'openskill Plackett–Luce: bar = ordinal (mu − 3·sigma), the conservative rating.',
      svg: meanChart(
        doc,
        names,
        r.standings.map((s) => s.ordinal),
        'ordinal',
        'Conservative rating by agent; the figures are in the standings table',
      ),
      tables: [],
    },
  ];
  return {
    title: `${r.ruleset} tournament: ${r.games} games`,
    facts: [
      ['ruleset', t(`${r.ruleset} ${r.version}`)],
      ['games', n(r.games, ['games'])],
      ['line-ups', t(`${r.lineups.length} × ${r.games_per_lineup} games, ${r.seats} seats, seat rotation`)],
      ['first seed', n(r.first_seed, ['first_seed'])],
      ['config', t(compactConfig(r.config))],
    ],
    sections: [{ id: 'standings', title: 'Standings', charts }],
  };
}
