// What a simulation report of GROUND shows first: the group's success. In SHARED GROUND every seat
// wins or loses together (GR-E02), so per-seat places and scores say nothing there; in the other
// modes the seats are ranked once the group has met the threshold (GR-E03, GR-E04).

import type { Json, ReportHints } from '../../kernel/index.ts';
import { DEFAULT_CONFIG } from './setup.ts';

const field = (config: Json, key: string): unknown =>
  config !== null && typeof config === 'object' && !Array.isArray(config) ? config[key] : undefined;

export const report: ReportHints = {
  headline: [
    {
      metric: 'group_success',
      label: 'group success',
      note: 'Share of games in which the claimed values reached the Scenario threshold (GR-E01).',
    },
  ],
  setting(config) {
    // the sim records the config as given: a field left out is the documented default
    const mode = field(config, 'mode');
    const players = field(config, 'players');
    const m = typeof mode === 'string' ? mode : DEFAULT_CONFIG.mode;
    return {
      cooperative: m === 'shared-ground',
      by: { mode: m, players: typeof players === 'number' ? players : DEFAULT_CONFIG.players },
    };
  },
};
