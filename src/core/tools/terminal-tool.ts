// `terminal`: commands in one persistent shell per conversation (OpenHands TerminalAction /
// TerminalObservation). Long commands return after a soft timeout and keep running; the model
// then reads more, types into them, or interrupts them with `C-c`.
import { dirname } from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import type { TerminalRunOptions, TerminalRunResult } from './ports';
import type { ToolContext, ToolObservation, ToolSpec } from './tool';
import { securityArgsShape } from './security-args';
import { errorMessage, errorObservation, observation } from './observation';
import { capMiddle, DEFAULT_MAX_OUTPUT_CHARS, formatCount } from './output-cap';
import { completedNote, NO_OUTPUT, STOPPED_WAITING_NOTE, stillRunningNote } from './terminal-notes';
import { BUILTIN_PARAMETERS } from './builtin-parameters';

export const TERMINAL_TOOL_NAME = 'terminal';
const ACTION_KIND = 'TerminalAction';
const OBSERVATION_KIND = 'TerminalObservation';

export interface TerminalToolOptions {
  /** Seconds a call waits for a command before returning what it printed so far (default 30). */
  defaultTimeoutSec?: number;
  /** Upper bound on the `timeout` the model may ask for (default 600). */
  maxTimeoutSec?: number;
  /** Characters of output the model sees per call (default 30,000); the rest goes to a scratch file. */
  maxOutputChars?: number;
  /** How long to wait for the output of an interrupted command (default 5 s). */
  interruptWaitSec?: number;
}

const TerminalArgsSchema = lazySchema(() =>
  z.object({
    command: z
      .string()
      .describe(
        'The bash command to run. With is_input true: text to type into the running command (sent with ' +
          'Enter), "" to read output it produced since the last call, or a key such as "C-c" (Ctrl+C).',
      ),
    is_input: z
      .boolean()
      .default(false)
      .describe('True to send `command` to the command that is still running instead of starting a new one.'),
    timeout: z
      .number()
      .positive()
      .optional()
      .describe(
        'A hard limit in seconds: a command still running then is stopped with Ctrl+C. Leave it out to ' +
          'get the output so far after the default wait (30 s) while the command keeps running.',
      ),
    reset: z
      .boolean()
      .default(false)
      .describe(
        'True to kill the shell and start a fresh one (working directory and variables are lost), e.g. ' +
          'when it is stuck. Then `command`, if not empty, runs in the new shell.',
      ),
    ...securityArgsShape(),
  }),
);
export type TerminalArgs = z.infer<typeof TerminalArgsSchema>;

const DESCRIPTION = `Run a command in a persistent bash shell. The working directory and exported variables carry over from one call to the next; several commands can be chained with && or ; or written on separate lines.
* Long-running commands: without \`timeout\`, a call returns after 30 s with what was printed so far and the command keeps running (exit code -1). Call again with is_input true and an empty command to read more output, or with command "C-c" to stop it. A new command cannot start while one is running.
* With \`timeout\` (seconds), a command still running then is stopped with Ctrl+C.
* Servers and watchers: start them in the background with their output redirected, e.g. \`npm run dev > dev.log 2>&1 &\`.
* Interactive programs: prefer non-interactive flags (-y, --no-pager, CI=1). To answer a prompt, send the text with is_input true.
* Output longer than the limit is cut in the middle; the full output is saved to a file whose path is given, which you can read with file_editor view or search with grep.
* Use file_editor, not cat/sed/echo, to view, create and edit files.`;

/** Lenient stored-payload schemas: imported OpenHands events must validate too. */
const ActionPayloadSchema = lazySchema(() =>
  z.looseObject({
    command: z.string(),
    is_input: z.boolean().optional(),
    timeout: z.number().nullable().optional(),
    reset: z.boolean().optional(),
  }),
);
const ObservationPayloadSchema = lazySchema(() =>
  z.looseObject({
    command: z.string().nullable().optional(),
    exit_code: z.number().nullable().optional(),
    timeout: z.boolean().optional(),
    metadata: z.looseObject({}).optional(),
    full_output_save_dir: z.string().nullable().optional(),
    full_output_path: z.string().nullable().optional(),
  }),
);

export function createTerminalTool(options: TerminalToolOptions = {}): ToolSpec<TerminalArgs> {
  const defaultTimeoutSec = options.defaultTimeoutSec ?? 30;
  const maxTimeoutSec = options.maxTimeoutSec ?? 600;
  const maxOutputChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  const interruptWaitMs = (options.interruptWaitSec ?? 5) * 1000;
  let lastCwd: string | undefined;
  let savedOutputs = 0;

  async function execute(args: TerminalArgs, ctx: ToolContext): Promise<ToolObservation> {
    const terminal = ctx.ports.terminal;
    const timeoutSec = Math.min(args.timeout ?? defaultTimeoutSec, maxTimeoutSec);
    const run: TerminalRunOptions = { timeoutMs: timeoutSec * 1000, signal: ctx.signal };
    const command = args.command;
    const fail = (text: string) => errorObservation(OBSERVATION_KIND, text, baseFields(command));
    try {
      if (args.reset) {
        if (args.is_input) return fail('reset cannot be combined with is_input.');
        await terminal.reset();
        lastCwd = undefined;
        if (command.trim() === '') {
          return observation(OBSERVATION_KIND, 'The terminal was reset: a fresh shell is ready.', {
            ...baseFields(command),
            exit_code: 0,
          });
        }
        return render(
          command,
          await terminal.run(command, run),
          timeoutSec,
          ctx,
          '[The terminal was reset.]',
        );
      }
      if (args.is_input) {
        if (!terminal.busy) {
          return fail(
            'No command is running, so there is nothing to send input to. Run it with is_input false.',
          );
        }
        const key = controlKey(command);
        if (key === 'interrupt') {
          await terminal.interrupt();
          const result = await terminal.sendInput('', { ...run, timeoutMs: interruptWaitMs });
          return render(command, result, interruptWaitMs / 1000, ctx, '[Sent Ctrl+C.]');
        }
        const text = key ?? (command === '' ? '' : command + '\n');
        return render(command, await terminal.sendInput(text, run), timeoutSec, ctx);
      }
      if (command.trim() === '') {
        if (terminal.busy) return render(command, await terminal.sendInput('', run), timeoutSec, ctx);
        return fail('The command is empty. Give a command to run.');
      }
      if (terminal.busy) {
        return fail(
          'A previous command is still running, so this one was not started. Send an empty command with ' +
            'is_input true to read its output, "C-c" with is_input true to stop it, or use reset true.',
        );
      }
      const result = await terminal.run(command, run);
      if (result.exitCode === null && typeof args.timeout === 'number' && !ctx.signal.aborted) {
        // An explicit timeout is a hard limit: stop the command with Ctrl+C and report what it printed.
        // Without one, the soft wait leaves servers and watchers running for the agent to read later.
        await terminal.interrupt();
        const rest = await terminal.sendInput('', { ...run, timeoutMs: interruptWaitMs });
        const stopped: TerminalRunResult = {
          ...rest,
          output: result.output + rest.output,
          timedOut: true,
          ...((rest.cwd ?? result.cwd) ? { cwd: rest.cwd ?? result.cwd } : {}),
        };
        return render(
          command,
          stopped,
          timeoutSec,
          ctx,
          '',
          `[Timed out after ${timeoutSec} s: sent Ctrl+C.]`,
        );
      }
      return render(command, result, timeoutSec, ctx);
    } catch (err) {
      return fail(`The terminal failed: ${errorMessage(err)}`);
    }
  }

  async function render(
    command: string,
    result: TerminalRunResult,
    waitedSec: number,
    ctx: ToolContext,
    prefix = '',
    note?: string,
  ): Promise<ToolObservation> {
    const output = result.output.replace(/\n$/, '');
    const capped = await capOutput(output, ctx);
    const running = result.exitCode === null;
    const notes: string[] = note ? [note] : [];
    if (running && ctx.signal.aborted) notes.push(STOPPED_WAITING_NOTE);
    else if (running) notes.push(stillRunningNote(waitedSec));
    else notes.push(completedNote(result.exitCode));
    if (result.cwd && result.cwd !== (lastCwd ?? ctx.cwd))
      notes.push(`[Working directory is now ${result.cwd}]`);
    if (result.cwd) lastCwd = result.cwd;
    const suffix = notes.join('\n');
    const body = capped.text === '' ? NO_OUTPUT : capped.text;
    const text = [prefix, body, suffix].filter((part) => part !== '').join('\n');
    const exitCode = result.exitCode ?? -1;
    return observation(OBSERVATION_KIND, text, {
      command,
      exit_code: exitCode,
      timeout: result.timedOut,
      metadata: {
        exit_code: exitCode,
        working_dir: result.cwd ?? null,
        ...(result.carried ? { carried: carriedText(result.cwd, result.carried) } : {}),
        prefix,
        suffix: '\n' + suffix,
      },
      full_output_save_dir: capped.path ? dirname(capped.path) : null,
      full_output_path: capped.path ?? null,
    });
  }

  async function capOutput(output: string, ctx: ToolContext): Promise<{ text: string; path?: string }> {
    if (output.length <= maxOutputChars) return { text: output };
    let path: string | undefined;
    let saveError: string | undefined;
    try {
      savedOutputs += 1;
      path = await ctx.ports.scratch.save(`terminal-output-${Date.now()}-${savedOutputs}.txt`, output);
    } catch (err) {
      saveError = errorMessage(err);
    }
    const where = path
      ? `the full output (${formatCount(output.length)} characters) is in ${path}; read it with file_editor view and view_range, or search it with grep`
      : `the full output could not be saved (${saveError})`;
    const capped = capMiddle(
      output,
      maxOutputChars,
      (removed) => `[... ${formatCount(removed)} characters cut here; ${where} ...]`,
    );
    return path ? { text: capped.text, path } : { text: capped.text };
  }

  return {
    name: TERMINAL_TOOL_NAME,
    description: DESCRIPTION,
    readOnly: false,
    actionKind: ACTION_KIND,
    observationKind: OBSERVATION_KIND,
    argsSchema: TerminalArgsSchema,
    parametersJson: BUILTIN_PARAMETERS.terminal,
    execute,
    toActionFields: (args) => ({
      command: args.command,
      is_input: args.is_input,
      timeout: args.timeout ?? null,
      reset: args.reset,
    }),
    actionPayloadSchema: ActionPayloadSchema,
    observationPayloadSchema: ObservationPayloadSchema,
  };
}

function baseFields(command: string): Record<string, unknown> {
  return { command, exit_code: -1, timeout: false };
}

/** `C-c` interrupts; other `C-<letter>` keys become their control character. */
function controlKey(command: string): 'interrupt' | string | undefined {
  const match = /^C-([a-z@[\\\]^_])$/i.exec(command.trim());
  if (!match) return undefined;
  const key = (match[1] as string).toUpperCase();
  if (key === 'C') return 'interrupt';
  return String.fromCharCode(key.charCodeAt(0) - 64);
}

/**
 * What a command left for the next one when each command starts in a fresh shell: its folder and
 * the names (never the values) of the exported variables it set, changed or removed.
 */
export function carriedText(cwd: string | undefined, exported: readonly string[]): string {
  const folder = cwd ? `working folder ${cwd}` : 'working folder unchanged';
  return `carried: ${folder}, exported: ${exported.length ? exported.join(', ') : 'none changed'}`;
}
