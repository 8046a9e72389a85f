// `arbiter tournament RULESET --agents a,b,c`: every line-up, ratings, win rates with intervals;
// results appended to DIR/results.jsonl as they come, so a rerun with the same --out resumes.

import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { ArbiterError, canonicalJson } from '../../kernel/index.ts';
import type { GameResult, TournamentReport } from '../../runners/tournament.ts';
import { addConfigOptions, buildConfig, parseCount, parseSeed } from './config.ts';
import { perRulesetVerb } from './play.ts';

function readResults(file: string, id: string): GameResult[] {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  if (lines.length === 0) return [];
  let head: { tournament?: string };
  try {
    head = JSON.parse(lines[0]);
  } catch {
    throw new ArbiterError('corrupt_log', `${file}: the first line is not JSON`);
  }
  if (head.tournament !== id)
    throw new ArbiterError(
      'bad_request',
      `${file} holds another tournament (${head.tournament}); use another --out folder`,
    );
  const out: GameResult[] = [];
  // a line cut short by an interruption is dropped (its game is played again)
  for (const l of lines.slice(1)) {
    try {
      out.push(JSON.parse(l) as GameResult);
    } catch {
      break;
    }
  }
  return out;
}

export function registerTournament(program: Command): void {
  perRulesetVerb(
    program,
    'tournament',
    'play every line-up of the named agents, rate them (openskill) and report win rates with intervals',
    (cmd, pkg) => {
      cmd
        .requiredOption(
          '-a, --agents <list>',
          'agents, comma-separated (at least one; each line-up seats them in every order)',
        )
        .option('-g, --games <n>', 'games per line-up (same seeds for every line-up)', '10')
        .option('-s, --seed <n>', 'seed of the first game', '1')
        .option('-o, --out <dir>', 'folder for results.jsonl (resume by running again with the same folder)')
        .option('--json', 'print the report as JSON')
        .option('--csv', 'print the standings as CSV')
        .option('--html <file>', 'also write a self-contained HTML report with a chart');
      addConfigOptions(cmd, pkg);
      cmd.action(async (opts: Record<string, unknown>) => {
        // openskill takes about a second to load: only this verb needs it
        const tournament = await import('../../runners/tournament.ts');
        const agents = String(opts.agents)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const topts = {
          agents,
          games: parseCount(opts.games as string, 'games', 10, 1_000_000),
          firstSeed: parseSeed(opts.seed as string),
          config: buildConfig(pkg, opts),
        };
        let done: GameResult[] = [];
        let onResult: ((r: GameResult) => void) | undefined;
        if (typeof opts.out === 'string') {
          mkdirSync(opts.out, { recursive: true });
          const file = join(opts.out, 'results.jsonl');
          const id = tournament.tournamentId(pkg, topts);
          done = readResults(file, id);
          if (!existsSync(file) || done.length === 0)
            writeFileSync(
              file,
              canonicalJson({ tournament: id, ruleset: pkg.ruleset.id, version: pkg.ruleset.version, ...topts }) + '\n',
            );
          if (done.length) process.stderr.write(`resuming: ${done.length} games already in ${file}\n`);
          onResult = (r) => appendFileSync(file, canonicalJson(r) + '\n');
        }
        const report = tournament.runTournament(pkg, { ...topts, done, onResult });
        if (typeof opts.html === 'string') writeFileSync(opts.html, htmlReport(report));
        if (opts.json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
        else if (opts.csv) process.stdout.write(csv(report));
        else process.stdout.write(table(report));
      });
    },
  );
}

function csv(r: TournamentReport): string {
  const rows = ['agent,games,wins,win_rate,ci_low,ci_high,mean_place,mu,sigma,ordinal'];
  for (const s of r.standings)
    rows.push(
      [
        s.agent,
        s.games,
        s.wins,
        s.win_rate,
        s.win_ci95[0],
        s.win_ci95[1],
        s.mean_place ?? '',
        s.mu,
        s.sigma,
        s.ordinal,
      ].join(','),
    );
  return rows.join('\n') + '\n';
}

function table(r: TournamentReport): string {
  const out = [
    `${r.ruleset} (${r.version}): ${r.lineups.length} line-ups × ${r.games_per_lineup} games = ${r.games} games, seats ${r.seats}`,
  ];
  const w = Math.max(5, ...r.standings.map((s) => s.agent.length));
  out.push(
    `${'agent'.padEnd(w)}  ${'games'.padStart(6)}  ${'win rate'.padStart(8)}  ${'95% interval'.padEnd(15)}  ${'place'.padStart(5)}  ${'mu'.padStart(7)}  ${'sigma'.padStart(6)}  ordinal`,
  );
  for (const s of r.standings) {
    out.push(
      `${s.agent.padEnd(w)}  ${String(s.games).padStart(6)}  ${(s.win_rate * 100).toFixed(1).padStart(7)}%  ${`${(s.win_ci95[0] * 100).toFixed(1)}–${(s.win_ci95[1] * 100).toFixed(1)}%`.padEnd(15)}  ${s.mean_place === null ? '    -' : s.mean_place.toFixed(2).padStart(5)}  ${s.mu.toFixed(2).padStart(7)}  ${s.sigma.toFixed(2).padStart(6)}  ${s.ordinal.toFixed(2)}`,
    );
  }
  return out.join('\n') + '\n';
}

const esc = (t: string) => t.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** One self-contained file: the standings table and a win-rate chart with interval whiskers (inline SVG). */
export function htmlReport(r: TournamentReport): string {
  const rowH = 28;
  const left = 160;
  const width = 640;
  const plot = width - left - 20;
  const bars = r.standings
    .map((s, i) => {
      const y = 20 + i * rowH;
      const x = (v: number) => left + v * plot;
      return `<g><text x="${left - 8}" y="${y + 15}" text-anchor="end">${esc(s.agent)}</text><rect x="${left}" y="${y + 4}" width="${(s.win_rate * plot).toFixed(1)}" height="16" fill="#4a78b5"><title>${esc(s.agent)}: ${(s.win_rate * 100).toFixed(1)}%</title></rect><line x1="${x(s.win_ci95[0]).toFixed(1)}" x2="${x(s.win_ci95[1]).toFixed(1)}" y1="${y + 12}" y2="${y + 12}" stroke="#111" stroke-width="2"/><text x="${(x(s.win_rate) + 4).toFixed(1)}" y="${y + 15}" font-size="11">${(s.win_rate * 100).toFixed(1)}%</text></g>`;
    })
    .join('');
  const height = 40 + r.standings.length * rowH;
  const axis = [0, 0.25, 0.5, 0.75, 1]
    .map((v) => `<text x="${left + v * plot}" y="${height - 4}" text-anchor="middle" font-size="11">${v * 100}%</text>`)
    .join('');
  const rows = r.standings
    .map(
      (s) =>
        `<tr><td>${esc(s.agent)}</td><td>${s.games}</td><td>${(s.win_rate * 100).toFixed(1)}%</td><td>${(s.win_ci95[0] * 100).toFixed(1)}–${(s.win_ci95[1] * 100).toFixed(1)}%</td><td>${s.mean_place ?? '-'}</td><td>${s.mu}</td><td>${s.sigma}</td><td>${s.ordinal}</td></tr>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(r.ruleset)} tournament</title>
<style>body{font:14px system-ui,sans-serif;margin:1.5em;max-width:760px}table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:4px 8px;text-align:right}td:first-child,th:first-child{text-align:left}svg text{font-family:system-ui,sans-serif}</style></head><body>
<h1>${esc(r.ruleset)} (${esc(r.version)}) tournament</h1>
<p>${r.lineups.length} line-ups × ${r.games_per_lineup} games = ${r.games} games; ${r.seats} seats; first seed ${r.first_seed}. Ratings: openskill Plackett–Luce (ordinal = mu − 3·sigma). Win-rate bars with 95% Wilson intervals.</p>
<svg role="img" aria-label="win rate per agent with 95% intervals" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${bars}${axis}</svg>
<table><caption>Standings</caption><thead><tr><th>agent</th><th>games</th><th>win rate</th><th>95% interval</th><th>mean place</th><th>mu</th><th>sigma</th><th>ordinal</th></tr></thead><tbody>${rows}</tbody></table>
</body></html>
`;
}
