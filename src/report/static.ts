// Server-side drawing: the charts need a DOM, and linkedom gives a light one in Node (no browser).

import { parseHTML } from 'linkedom';
import type { SimReport } from '../runners/sim.ts';
import type { TournamentReport } from '../runners/tournament.ts';
import { simReportView, tournamentReportView } from './charts.ts';
import { renderReportPage } from './page.ts';

const serverDocument = () => parseHTML('<!doctype html><html><head></head><body></body></html>').document;

/** `sim --html`: one self-contained file with every chart of the run. */
export const simReportHtml = (r: SimReport): string => renderReportPage(simReportView(r, serverDocument()));

/** `tournament --html`: the same charting as the sim report. */
export const tournamentReportHtml = (r: TournamentReport): string =>
  renderReportPage(tournamentReportView(r, serverDocument()));
