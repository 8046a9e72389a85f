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
// readReport checks the fields the charts read; past those checks a record is taken as the runner's shape
const tournamentShaped = (v: unknown): v is TournamentReport => isObj(v);
const simShaped = (v: unknown): v is SimReport => isObj(v);

/** What kind of report a parsed file is, with the reason when it is neither. */
function readReport(data: unknown): Loaded | string {
  if (!isObj(data)) return 'the file is not a JSON object';
  if (Array.isArray(data.standings)) {
    const ok = data.standings.every(
      (s) => isObj(s) && typeof s.agent === 'string' && typeof s.win_rate === 'number' && pairs([s.win_ci95]),
    );
    return ok && typeof data.ruleset === 'string' && tournamentShaped(data)
      ? { kind: 'tournament', report: data }
      : 'the standings of this tournament report are not in the expected form';
  }
  const missing = ['ruleset', 'games', 'win_rate', 'win_ci95', 'actions', 'metrics', 'reasons'].filter(
    (k) => !(k in data),
  );
  if (missing.length) return `this is not a sim --json report (missing: ${missing.join(', ')})`;
  if (!nums(data.win_rate) || !pairs(data.win_ci95) || !isObj(data.actions) || !isObj(data.metrics))
    return 'the figures of this report are not in the expected form';
  return simShaped(data) ? { kind: 'sim', report: data } : 'this is not a sim --json report';
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
      <style>{REPORT_CSS}</style>
      <h1>Simulation report</h1>
      <p>
        Open the output of <code>arbiter sim RULESET --json &gt; run.json</code> (or{' '}
        <code>arbiter tournament … --json</code>) to see its charts. The file stays in this browser. The same charts go
        into one file with <code>arbiter sim RULESET --html report.html</code>.
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
