// `logbook sandbox`: the diagnostics of the boundary. Whether a sandbox starts here, and if not,
// the problem and its fix; then what it allows for the workspace.
import { sandboxReportText } from '../sandbox';
import { parseCommandArgs, expectPositionals } from './args';
import { resolvePath } from './conversation-dir';
import { EXIT } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { cliSandbox, SANDBOX_OPTION } from './sandbox-option';
import { cliSettings } from './cli-settings';

export async function sandboxCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('sandbox', argv, {
    workspace: { type: 'string' },
    json: { type: 'boolean' },
    ...SANDBOX_OPTION,
  });
  if (values.help) {
    io.out(COMMAND_HELP.sandbox);
    return EXIT.ok;
  }
  expectPositionals('sandbox', positionals, []);
  const sandbox = cliSandbox(
    cliSettings('sandbox', io.env, { flags: values, warn: (line) => io.err(line) }),
    io.env,
    { probeFresh: true },
  );
  const report = sandbox.report([resolvePath(io, values.workspace ?? '.')]);
  io.out(values.json ? JSON.stringify(report) : sandboxReportText(report));
  return report.state === 'on' ? EXIT.ok : EXIT.failure;
}
