// The simulation report page (/report): open the JSON that `arbiter sim --json` (or
// `arbiter tournament --json`) printed and see the same charts `sim --html` writes into a file:
// the charts come from the same code (src/report), drawn here into the page's own document.
// This module and Observable Plot load as their own chunk, only when the page is opened.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { simReportView, tournamentReportView, type ReportView } from '../../../src/report/charts.ts';
import { REPORT_CSS, renderReportBody, renderReportPage } from '../../../src/report/page.ts';
import type { SimReport } from '../../../src/runners/sim.ts';
import type { TournamentReport } from '../../../src/runners/tournament.ts';

type Loaded = { kind: 'sim'; report: SimReport } | { kind: 'tournament'; report: TournamentReport };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nums = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'number');
const pairs = (v: unknown) => Array.isArray(v) && v.every((x) => Array.isArray(x) && x.length === 2 && nums(x));

const TOURNAMENT_KEYS = ['ruleset', 'version', 'games', 'seats', 'lineups', 'standings'];
const SIM_KEYS = ['ruleset', 'games', 'first_seed', 'agents', 'win_rate', 'win_ci95', 'actions', 'reasons', 'metrics'];

/** The checks a file passes before its figures are drawn (the shape, not every number). */
const isTournament = (d: unknown): d is TournamentReport =>
  isObj(d) &&
  TOURNAMENT_KEYS.every((k) => k in d) &&
  Array.isArray(d.standings) &&
  d.standings.every((s) => isObj(s) && typeof s.agent === 'string' && pairs([s.win_ci95]));
const isSim = (d: unknown): d is SimReport =>
  isObj(d) &&
  SIM_KEYS.every((k) => k in d) &&
  nums(d.win_rate) &&
  pairs(d.win_ci95) &&
  isObj(d.actions) &&
  isObj(d.metrics);

/** What kind of report a parsed file is, or why it is neither. */
function readReport(data: unknown): Loaded | string {
  if (!isObj(data)) return 'the file is not a JSON object';
  if ('standings' in data)
    return isTournament(data)
      ? { kind: 'tournament', report: data }
      : 'this tournament report is not in the expected form';
  if (isSim(data)) return { kind: 'sim', report: data };
  const missing = SIM_KEYS.filter((k) => !(k in data));
  return missing.length
    ? `this is not a sim --json report (missing: ${missing.join(', ')})`
    : 'the figures of this report are not in the expected form';
}

const viewOf = (l: Loaded): ReportView =>
  l.kind === 'sim' ? simReportView(l.report, document) : tournamentReportView(l.report, document);

function Report({ loaded, name }: { loaded: Loaded; name: string }) {
  const view = useMemo(() => viewOf(loaded), [loaded]);
  // the body is the same markup the report file has (src/report/page.ts), so both show the same
  const body = useMemo(() => renderReportBody(view, 2), [view]);
  const download = useMemo(
    () => URL.createObjectURL(new Blob([renderReportPage(view)], { type: 'text/html' })),
    [view],
  );
  useEffect(() => () => URL.revokeObjectURL(download), [download]);
  const file = `${name.replace(/\.json$/i, '') || 'report'}.html`;
  return (
    <>
      <p>
        <a href={download} download={file}>
          Save as a self-contained HTML file ({file})
        </a>
      </p>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: escaped markup built by src/report/page.ts */}
      <div dangerouslySetInnerHTML={{ __html: body }} />
    </>
  );
}

export function ReportPage() {
  const [loaded, setLoaded] = useState<{ data: Loaded; name: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const open = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    try {
      const r = readReport(JSON.parse(await file.text()));
      if (typeof r === 'string') throw new Error(r);
      setLoaded({ data: r, name: file.name });
    } catch (e) {
      setLoaded(null);
      setError(`${file.name}: ${(e as Error).message}`);
    }
  };

  return (
    <section class="report-page">
      {/* flags never break at their hyphens */}
      <style>{`${REPORT_CSS}.report-page code span{white-space:nowrap}`}</style>
      <h1>Simulation report</h1>
      <p>Open a report file to see its charts (the file stays in this browser). Write one with:</p>
      <ul>
        <li>
          <code>
            arbiter sim RULESET <span>--json</span>
          </code>{' '}
          (a simulation), or
        </li>
        <li>
          <code>
            arbiter tournament RULESET <span>--agents a,b</span> <span>--json</span>
          </code>
          .
        </li>
      </ul>
      <p>
        The same charts go into one self-contained file with{' '}
        <code>
          arbiter sim RULESET <span>--html FILE</span>
        </code>
        .
      </p>
      <p>
        <label for="report-file">Report file (JSON)</label>{' '}
        <input
          id="report-file"
          type="file"
          accept=".json,application/json"
          onChange={(e) => open((e.currentTarget as HTMLInputElement).files?.[0])}
        />
      </p>
      {error && <p role="alert">{error}</p>}
      {loaded && <Report loaded={loaded.data} name={loaded.name} />}
    </section>
  );
}
