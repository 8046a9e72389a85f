// The command line in-process: `run(argv, io)` with captured streams, the way a user's process
// would run it but without starting one (and paying its start-up) per call. Colours are off
// unless the caller's env turns them on.
import { Readable, Writable } from 'node:stream';
import { run } from '../../src/cli/run.ts';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

function collector(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _enc, done) {
      chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

/** Runs `arbiter ARGS` in this process; `input` is its stdin (empty by default). */
export async function cli(
  args: string[],
  opts: { input?: string; cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<CliResult> {
  const out = collector();
  const err = collector();
  const code = await run(args, {
    stdout: out.stream,
    stderr: err.stream,
    stdin: Readable.from(opts.input === undefined ? [] : [opts.input]),
    cwd: opts.cwd ?? process.cwd(),
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
  });
  return { code, out: out.text(), err: err.text() };
}
