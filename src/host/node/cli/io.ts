// The process as the commands see it, so they can be driven in-process without a real terminal.
import { createInterface } from 'node:readline';
import { printableText } from '../../../core/text/printable';

/**
 * Signals that stop a run the way Ctrl+C does: SIGTERM is what `timeout`, systemd and `kill` send,
 * SIGHUP what a closed terminal sends. Without a handler Node would exit on them at once, leaving
 * the command's process group running and the log saying `running`.
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/**
 * The same signal again within this time is the same stop: a CLI under a wrapper that passes
 * signals on gets a terminal's Ctrl+C both from the terminal and from the wrapper, and a second
 * one would quit at once. Far shorter than a person takes to press Ctrl+C twice.
 */
const SAME_SIGNAL_MS = 100;
const lastSignalAt = new Map<StopSignal, number>();

export interface CliIo {
  /** One line to stdout (the newline is added). */
  out(line: string): void;
  /** One line to stderr. */
  err(line: string): void;
  env: Readonly<Record<string, string | undefined>>;
  /** Resolves relative paths given on the command line. */
  cwd: string;
  /** Registers a handler of the stop signals (Ctrl+C and the like); returns a function that removes it. */
  onInterrupt(handler: (signal: StopSignal) => void): () => void;
  /**
   * Asks on stderr and reads one line of stdin; undefined when stdin ends first, or `signal` aborts
   * (the reading stops then, so stdin does not keep the process alive).
   */
  ask?(question: string, signal?: AbortSignal): Promise<string | undefined>;
  /** A person is at a terminal (stdin and stdout are TTYs): `run` may ask in place. */
  interactive?: boolean;
  /** stdout shows colour (a terminal, NO_COLOR unset, TERM not dumb). */
  colour?: boolean;
  /** Writes `text` to stdout as it is: only for the CLI's own colour codes around printable text. */
  outRaw?(text: string): void;
}

export function processIo(): CliIo {
  // A reader that goes away (`logbook run ... | head`, or a closed terminal: EIO) must not kill the
  // agent mid-step: the run goes on, its events are in the log, and only the printing stops.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'EIO') throw err;
    });
  }
  return {
    // Synchronous writes: stdout/stderr on Linux pipes and files are, so lines are never lost
    // when the process exits right after. No escape sequence reaches the terminal, whatever path
    // model or tool text took to get here (the lines that carry it also escape newlines).
    out: (line) => void process.stdout.write(printableText(line) + '\n'),
    err: (line) => void process.stderr.write(printableText(line) + '\n'),
    env: process.env,
    cwd: process.cwd(),
    ask: (question, signal) => askLine(question, signal),
    interactive: process.stdin.isTTY === true && process.stdout.isTTY === true,
    colour:
      process.stdout.isTTY === true && (process.env.NO_COLOR ?? '') === '' && process.env.TERM !== 'dumb',
    outRaw: (text) => void process.stdout.write(text),
    onInterrupt(handler) {
      const listeners = STOP_SIGNALS.map((signal) => {
        const listener = () => {
          const now = Date.now();
          if (now - (lastSignalAt.get(signal) ?? -Infinity) < SAME_SIGNAL_MS) return;
          lastSignalAt.set(signal, now);
          handler(signal);
        };
        process.on(signal, listener);
        return () => void process.off(signal, listener);
      });
      return () => listeners.forEach((off) => off());
    },
  };
}

function askLine(question: string, signal?: AbortSignal): Promise<string | undefined> {
  if (signal?.aborted) return Promise.resolve(undefined);
  process.stderr.write(question);
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin });
    let answered = false;
    signal?.addEventListener('abort', () => rl.close(), { once: true });
    rl.once('line', (line) => {
      answered = true;
      rl.close();
      resolve(line);
    });
    rl.once('close', () => {
      if (!answered) resolve(undefined);
    });
  });
}
