// `terminal/create` of an external ACP agent as a call of Logbook's own `terminal` tool: the
// command line the gate rates and the sandboxed shell runs, and, from the call's recorded result,
// the output and exit status `terminal/output` and `terminal/wait_for_exit` give back.
import { isAbsolute } from 'node:path';
import { RequestError, type CreateTerminalRequest, type TerminalExitStatus } from '@agentclientprotocol/sdk';
import { ENDING_NOTE, NO_OUTPUT } from '../../../core/tools/terminal-notes';

/** A command the agent asked for may run this long before the shell stops it with Ctrl+C. */
export const AGENT_COMMAND_TIMEOUT_SEC = 600;

/** What a terminal keeps once its command ran: all `terminal/output` and `wait_for_exit` need. */
export interface EndedTerminal {
  output: string;
  truncated: boolean;
  exitStatus: TerminalExitStatus;
  /** Where the shell went, when the command changed its directory. */
  movedTo?: string;
}

const PLAIN_WORD = /^[\w@%+=:,./-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function shellQuote(word: string): string {
  return PLAIN_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The one shell line the request stands for. Without `args` the command is taken as a shell line
 * (what agents that run `bash -c` for the user send); with them every word is quoted. It runs in
 * the request's folder, else the session's; the line changes directory only when that is not
 * where the shell already is.
 */
export function commandLine(req: CreateTerminalRequest, shellCwd: string, sessionCwd: string): string {
  if (req.command.trim() === '')
    throw RequestError.invalidParams({ command: req.command }, 'The command is empty.');
  const cwd = req.cwd ?? sessionCwd;
  if (!isAbsolute(cwd)) throw RequestError.invalidParams({ cwd }, 'The cwd must be absolute.');
  const env = (req.env ?? []).map((v) => {
    if (!ENV_NAME.test(v.name))
      throw RequestError.invalidParams({ env: v.name }, `"${v.name}" is not a variable name.`);
    return `${v.name}=${shellQuote(v.value)}`;
  });
  const program = req.args ? [req.command, ...req.args].map(shellQuote).join(' ') : req.command;
  const run = env.length > 0 ? `${env.join(' ')} ${program}` : program;
  return cwd === shellCwd ? run : `cd ${shellQuote(cwd)} && ${run}`;
}

const CUT_MARK = / characters cut here; /;
const CWD_NOTE = /^\[Working directory is now (.*)\]$/;
const TIMED_OUT_NOTE = /^\[Timed out after \d+ s: sent Ctrl\+C\.\]$/;
const EXIT_CODE = /^\[The command completed with exit code (-?\d+)\.\]$/;

/**
 * The terminal tool's recorded result as the agent's terminal: the output without Logbook's notes,
 * and the exit code. A result with no ending note is no run (refused, rejected, failed): undefined.
 */
export function endedTerminal(result: string, outputByteLimit?: number | null): EndedTerminal | undefined {
  const lines = result.split('\n');
  let exitCode: number | undefined;
  let timedOut = false;
  let movedTo: string | undefined;
  while (lines.length > 0) {
    const last = lines[lines.length - 1]!;
    const code = EXIT_CODE.exec(last);
    const moved = CWD_NOTE.exec(last);
    if (code) exitCode = Number(code[1]);
    else if (moved) movedTo = moved[1];
    else if (TIMED_OUT_NOTE.test(last)) timedOut = true;
    else if (!ENDING_NOTE.test(last)) break;
    lines.pop();
  }
  if (exitCode === undefined || exitCode < 0) return undefined;
  let output = lines.join('\n');
  if (output === NO_OUTPUT) output = '';
  const kept = keepLastBytes(output, outputByteLimit);
  return {
    output: kept.text,
    truncated: kept.cut || CUT_MARK.test(output),
    exitStatus: timedOut ? { exitCode: null, signal: 'SIGINT' } : { exitCode, signal: null },
    ...(movedTo !== undefined ? { movedTo } : {}),
  };
}

/** ACP cuts a terminal's output from its beginning, at a character's edge. */
export function keepLastBytes(text: string, limit?: number | null): { text: string; cut: boolean } {
  if (limit == null) return { text, cut: false };
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= Math.max(0, limit)) return { text, cut: false };
  let start = bytes.length - Math.max(0, limit);
  // Not in the middle of a character: skip UTF-8 continuation bytes (10xxxxxx).
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
  return { text: bytes.subarray(start).toString('utf8'), cut: true };
}
