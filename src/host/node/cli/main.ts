// Dispatches `logbook <command>` and turns every failure into a message and exit code 1: users
// see what went wrong and what to do, never a stack trace (LOGBOOK_DEBUG=1 shows it).
import { version } from '../../../../package.json';
import { EXIT } from './exit-codes';
import { OVERVIEW } from './help';
import type { CliIo } from './io';
import { repairHint } from './repair-hint';

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

// Each command is loaded when it runs, from its own bundle (scripts/lazy-bundles.mjs): `show` never
// parses the agent loop, the sandbox or the model client. Keep every entry a dynamic import of its
// module, and this file free of imports that load the core.
const COMMANDS: Record<string, () => Promise<Command>> = {
  run: async () => (await import('./run-command')).runCommand,
  acp: async () => (await import('./acp-command')).acpCommand,
  show: async () => (await import('./show-command')).showCommand,
  approve: async () => (await import('./decide-command')).approveCommand,
  reject: async () => (await import('./decide-command')).rejectCommand,
  resolve: async () => (await import('./decide-command')).resolveCommand,
  'import-openhands': async () => (await import('./import-command')).importCommand,
  'export-openhands': async () => (await import('./export-command')).exportCommand,
  repair: async () => (await import('./repair-command')).repairCommand,
  verify: async () => (await import('./verify-command')).verifyCommand,
  trust: async () => (await import('./trust-command')).trustCommand,
  hooks: async () => {
    const { hooksCommand } = await import('./hooks-command');
    return async (argv, io) => hooksCommand(argv, io);
  },
  checkpoints: async () => (await import('./checkpoints-command')).checkpointsCommand,
  restore: async () => (await import('./restore-command')).restoreCommand,
  diff: async () => (await import('./diff-command')).diffCommand,
  replay: async () => (await import('./replay-command')).replayCommand,
  sandbox: async () => (await import('./sandbox-command')).sandboxCommand,
  config: async () => (await import('./config-command')).configCommand,
  agents: async () => (await import('./agents-command')).agentsCommand,
  doctor: async () => (await import('./doctor-command')).doctorCommand,
  tasks: async () => (await import('./tasks-command')).tasksCommand,
  review: async () => (await import('./review-command')).reviewCommand,
  apply: async () => (await import('./apply-command')).applyCommand,
  discard: async () => (await import('./discard-command')).discardCommand,
  fork: async () => (await import('./fork-command')).forkCommand,
};

/**
 * A command's errors are told apart by name, not `instanceof`: each command bundle has its own copy
 * of UsageError and EventStoreError.
 */
function errorNamed(err: unknown, name: string): err is Error & { code?: unknown } {
  return err instanceof Error && err.name === name;
}

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    io.out(version);
    return EXIT.ok;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(OVERVIEW);
    return EXIT.ok;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    io.err(`logbook: unknown command "${name}".`);
    io.err(`Commands: ${Object.keys(COMMANDS).join(', ')}. See logbook --help.`);
    return EXIT.failure;
  }
  try {
    // Before a command's schemas are made, which decide then: zod's compiled parser (a function
    // generated for each object schema on its first parse) costs a short-lived process more than
    // it saves; `logbook run` spent a tenth of its CPU time generating them.
    (await import('zod')).config({ jitless: true });
    const command = await load();
    return await command(rest, io);
  } catch (err) {
    if (errorNamed(err, 'UsageError')) {
      io.err(err.message);
      io.err(`See logbook ${name} --help.`);
    } else if (err instanceof Error) {
      // Expected failures (locked conversation, missing directory, bad settings) read as one line,
      // named once (some messages already start with the command's name).
      io.err(err.message.startsWith(`logbook ${name}`) ? err.message : `logbook ${name}: ${err.message}`);
      if (errorNamed(err, 'EventStoreError') && err.code === 'LOST_DATA') io.err(repairHint('CONV_DIR'));
      if (io.env.LOGBOOK_DEBUG) io.err(err.stack ?? '');
    } else {
      io.err(`logbook ${name}: ${String(err)}`);
    }
    return EXIT.failure;
  }
}
