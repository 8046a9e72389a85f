// What one run of the command line talks to: its output streams, input, working directory and
// environment. `run(argv, io)` takes it, so a test runs the CLI in-process with captured streams
// and the `arbiter` process passes its own (processIO).

/** A writable text stream: process.stdout, or a test's collector. */
export type CliStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };

export interface CliIO {
  stdout: CliStream;
  stderr: CliStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  cwd: string;
  env: Record<string, string | undefined>;
}

/** The handle every verb gets: the io, shorthands to write, and the run's exit code. */
export interface CliContext {
  io: CliIO;
  out(text: string): void;
  err(text: string): void;
  /** Sets the exit code `run` returns (the last call wins, as with process.exitCode). */
  exit(code: number): void;
  readonly code: number;
}

export function cliContext(io: CliIO): CliContext {
  let code = 0;
  return {
    io,
    out: (text) => void io.stdout.write(text),
    err: (text) => void io.stderr.write(text),
    exit: (c) => {
      code = c;
    },
    get code() {
      return code;
    },
  };
}

/** This process's streams, working directory and environment. */
export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, cwd: process.cwd(), env: process.env };
}
