// A report view (charts.ts) as HTML text: the body is shared by the self-contained file that
// `sim --html` / `tournament --html` write and by the web page's report route, so both show the
// same markup; the file adds a document around it with the style sheet inline.

import type { Cell, ReportView, Table } from './charts.ts';

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c]);

/** Scoped to `.arb-report` so the web page can carry it without touching its own styles. */
export const REPORT_CSS = `
.arb-report{font:15px/1.45 system-ui,sans-serif;color:#111;max-width:1100px}
.arb-report .r-title{font-size:1.4em;margin:.4em 0}
.arb-report .r-section{font-size:1.2em;margin:1.2em 0 .4em;border-bottom:1px solid #999}
.arb-report .r-chart{font-size:1em;margin:0 0 .2em;overflow-wrap:anywhere}
.arb-report dl{display:grid;grid-template-columns:auto 1fr;gap:.1em .8em;margin:0}
.arb-report dt{font-weight:600}
.arb-report dd{margin:0;overflow-wrap:anywhere}
.arb-report .charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:1.2em 1.6em}
.arb-report figure{margin:0;min-width:0}
.arb-report figure svg{max-width:100%;height:auto;display:block}
.arb-report .r-figure{font-size:2em;font-weight:700;margin:0}
.arb-report .note{margin:.2em 0 .4em;font-size:.9em;color:#333}
.arb-report table{border-collapse:collapse;margin:.4em 0;font-size:.85em}
.arb-report caption{text-align:left;font-weight:600;padding:.2em 0}
.arb-report th,.arb-report td{border:1px solid #aaa;padding:2px 6px;text-align:right}
.arb-report th:first-child,.arb-report td:first-child{text-align:left}
.arb-report .table-wrap{overflow-x:auto;max-width:100%}
.arb-report details>summary{cursor:pointer;padding:.2em 0}
.arb-report details>summary:focus-visible{outline:2px solid #24548c}
@media (max-width:400px){.arb-report th,.arb-report td{padding:2px 3px}}
`;

function cell(c: Cell, tag: 'td' | 'th' = 'td'): string {
  const data =
    c.path !== undefined && c.value !== undefined
      ? ` data-path="${esc(JSON.stringify(c.path))}" data-value="${esc(String(c.value))}"`
      : '';
  return `<${tag}${data}>${esc(c.text)}</${tag}>`;
}

function table(tb: Table): string {
  const body =
    // a wide table scrolls on its own on a phone; focusable so a keyboard can scroll it too
    `<div class="table-wrap" role="region" tabindex="0" aria-label="${esc(tb.caption)} (table)"><table><caption>${esc(tb.caption)}</caption>` +
    `<thead><tr>${tb.head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${tb.rows.map((r) => `<tr>${r.map((c) => cell(c)).join('')}</tr>`).join('')}</tbody></table></div>`;
  return tb.collapsed ? `<details><summary>${esc(tb.caption)} (table)</summary>${body}</details>` : body;
}

/** The report's markup (no document around it). */
export function renderReportBody(v: ReportView, headingLevel: 1 | 2 = 1): string {
  const h = (k: number) => `h${Math.min(6, k + headingLevel - 1)}`;
  const facts = `<dl>${v.facts
    .map(
      ([k, c]) =>
        `<dt>${esc(k)}</dt>${cell(c, 'td')
          .replace(/^<td/, '<dd')
          .replace(/<\/td>$/, '</dd>')}`,
    )
    .join('')}</dl>`;
  const sections = v.sections.map((s) => {
    const charts = s.charts
      .map(
        (c) =>
          `<figure id="${esc(c.id)}" aria-labelledby="${esc(c.id)}-title"><${h(3)} class="r-chart" id="${esc(c.id)}-title">${esc(c.title)}</${h(3)}>` +
          (c.figure ? `<p class="r-figure">${esc(c.figure)}</p>` : '') +
          (c.note ? `<p class="note">${esc(c.note)}</p>` : '') +
          (c.svg?.outerHTML ?? '') +
          c.tables.map(table).join('') +
          `</figure>`,
      )
      .join('');
    const inner = (s.intro ? `<p>${esc(s.intro)}</p>` : '') + `<div class="charts">${charts}</div>`;
    const title = `<${h(2)} class="r-section">${esc(s.title)}</${h(2)}>`;
    return `<section id="${esc(s.id)}" aria-label="${esc(s.title)}">${
      s.collapsed
        ? `${title}<details><summary>show ${s.charts.length} charts</summary>${inner}</details>`
        : title + inner
    }</section>`;
  });
  return `<div class="arb-report"><${h(1)} class="r-title">${esc(v.title)}</${h(1)}>${facts}${sections.join('')}</div>`;
}

/** One self-contained HTML document: inline style, inline SVG, no script and no outside address. */
export function renderReportPage(v: ReportView): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(v.title)}</title>
<style>body{margin:12px;background:#fff}${REPORT_CSS}</style></head>
<body><main>${renderReportBody(v)}</main></body></html>
`;
}
