// The process as the commands see it, so they can be driven in-process without a real terminal.
export interface CliIo {
  /** One line to stdout (the newline is added). */
  out(line: string): void;
  /** One line to stderr. */
  err(line: string): void;
  env: Readonly<Record<string, string | undefined>>;
  /** Resolves relative paths given on the command line. */
  cwd: string;
  /** Registers a Ctrl+C handler; returns a function that removes it. */
  onInterrupt(handler: () => void): () => void;
}

export function processIo(): CliIo {
  // A reader that goes away (`logbook run ... | head`) must not kill the agent mid-step: the run
  // goes on, its events are in the log, and only the printing stops.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
    });
  }
  return {
    // Synchronous writes: stdout/stderr on Linux pipes and files are, so lines are never lost
    // when the process exits right after.
    out: (line) => void process.stdout.write(line + '\n'),
    err: (line) => void process.stderr.write(line + '\n'),
    env: process.env,
    cwd: process.cwd(),
    onInterrupt(handler) {
      process.on('SIGINT', handler);
      return () => void process.off('SIGINT', handler);
    },
  };
}
