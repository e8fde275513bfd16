// Dispatches `logbook <command>` and turns every failure into a message and exit code 1: users
// see what went wrong and what to do, never a stack trace (LOGBOOK_DEBUG=1 shows it).
import { version } from '../../../../package.json';
import { approveCommand, rejectCommand, resolveCommand } from './decide-command';
import { EXIT, UsageError } from './exit-codes';
import { exportCommand } from './export-command';
import { OVERVIEW } from './help';
import { EventStoreError } from '../../../core/log';
import { repairHint } from './lost-report';
import { repairCommand } from './repair-command';
import { importCommand } from './import-command';
import type { CliIo } from './io';
import { runCommand } from './run-command';
import { showCommand } from './show-command';
import { trustCommand } from './trust-command';
import { hooksCommand } from './hooks-command';
import { verifyCommand } from './verify-command';
import { checkpointsCommand } from './checkpoints-command';
import { restoreCommand } from './restore-command';
import { diffCommand } from './diff-command';
import { replayCommand } from './replay-command';
import { sandboxCommand } from './sandbox-command';
import { configCommand } from './config-command';
import { agentsCommand } from './agents-command';
import { doctorCommand } from './doctor-command';

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  run: runCommand,
  show: showCommand,
  approve: approveCommand,
  reject: rejectCommand,
  resolve: resolveCommand,
  'import-openhands': importCommand,
  'export-openhands': exportCommand,
  repair: repairCommand,
  verify: verifyCommand,
  trust: trustCommand,
  hooks: async (argv, io) => hooksCommand(argv, io),
  checkpoints: checkpointsCommand,
  restore: restoreCommand,
  diff: diffCommand,
  replay: replayCommand,
  sandbox: sandboxCommand,
  config: configCommand,
  agents: agentsCommand,
  doctor: doctorCommand,
};

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
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.err(`logbook: unknown command "${name}".`);
    io.err(`Commands: ${Object.keys(COMMANDS).join(', ')}. See logbook --help.`);
    return EXIT.failure;
  }
  try {
    return await command(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(err.message);
      io.err(`See logbook ${name} --help.`);
    } else if (err instanceof Error) {
      // Expected failures (locked conversation, missing directory, bad settings) read as one line.
      io.err(`logbook ${name}: ${err.message}`);
      if (err instanceof EventStoreError && err.code === 'LOST_DATA') io.err(repairHint('CONV_DIR'));
      if (io.env.LOGBOOK_DEBUG) io.err(err.stack ?? '');
    } else {
      io.err(`logbook ${name}: ${String(err)}`);
    }
    return EXIT.failure;
  }
}
