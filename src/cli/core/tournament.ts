// `arbiter tournament RULESET --agents a,b,c`: every line-up, ratings, win rates with intervals;
// results appended to DIR/results.jsonl as they come, so a rerun with the same --out resumes.

import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../io.ts';
import { ArbiterError, canonicalJson } from '@arbiter/engine/kernel';
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

export function registerTournament(program: Command, ctx: CliContext): void {
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
        .option(
          '--html <file>',
          'also write a self-contained HTML report with charts (the same charting as sim --html)',
        );
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
          if (done.length) ctx.err(`resuming: ${done.length} games already in ${file}\n`);
          onResult = (r) => appendFileSync(file, canonicalJson(r) + '\n');
        }
        const report = tournament.runTournament(pkg, { ...topts, done, onResult });
        // the charting (Observable Plot, linkedom) loads only when a report file is asked for
        if (typeof opts.html === 'string')
          writeFileSync(opts.html, (await import('../../report/static.ts')).tournamentReportHtml(report));
        if (opts.json) ctx.out(JSON.stringify(report, null, 2) + '\n');
        else if (opts.csv) ctx.out(csv(report));
        else ctx.out(table(report));
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
