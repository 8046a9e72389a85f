// The CLI's colours, decided per run from its io (NO_COLOR, FORCE_COLOR, a terminal on stdout)
// rather than once from this process's streams, so an in-process run writes what a process would.
import pico from 'picocolors';
import type { CliIO } from './io.ts';

/** Live binding: every CLI module reads the colours of the current run. */
export let pc: ReturnType<typeof pico.createColors> = pico;

export function useColorsFor(io: CliIO): void {
  const env = io.env;
  const on =
    !('NO_COLOR' in env) && ('FORCE_COLOR' in env || (io.stdout.isTTY === true && env.TERM !== 'dumb') || 'CI' in env);
  pc = pico.createColors(on);
}
