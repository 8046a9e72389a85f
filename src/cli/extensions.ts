// Ruleset-specific CLI commands and interactive players plug in here, one import each, so the
// core CLI (src/cli/main.ts) stays generic. A command module exports `register(program)`.

import type { Command } from 'commander';
import { register as registerBnc } from './commands/bnc.ts';
import { register as registerExplore } from './commands/explore.ts';
import { register as registerGround } from './commands/ground.ts';
import { playMinesInteractive, register as registerMines } from './commands/mines.ts';

export type CommandRegistrar = (program: Command) => void;

/** A terminal UI for a person to play one ruleset: `arbiter play RULESET --interactive`. */
export type InteractivePlayer = (options: { seed: number; config: Record<string, unknown> }) => Promise<void>;

export const commandModules: CommandRegistrar[] = [
  // e.g. (await import('./commands/explore.ts')).register — add static imports above and list them here
  registerBnc,
  registerExplore,
  registerGround,
  registerMines,
];

export const interactivePlayers: Record<string, InteractivePlayer> = {
  mines: playMinesInteractive,
};
