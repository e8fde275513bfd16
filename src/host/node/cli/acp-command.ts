// `logbook acp`: Logbook as an Agent Client Protocol agent on stdin and stdout. The protocol's
// code loads only here, when the command runs, so the other commands never pay for it.
import { parseCommandArgs, expectPositionals } from './args';
import { cliSettings } from './cli-settings';
import { prepareCliSession } from './cli-session';
import { DEMO_OPTION } from './demo-option';
import { EXIT } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { MCP_CONFIG_OPTION } from './mcp-option';
import { PASS_ENV_OPTION } from './pass-env';
import { SANDBOX_OPTION } from './sandbox-option';

export async function acpCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('acp', argv, {
    'confirmation-mode': { type: 'string' },
    confirm: { type: 'string' },
    'max-iterations': { type: 'string' },
    'max-tool-calls': { type: 'string' },
    'no-checkpoints': { type: 'boolean' },
    ...DEMO_OPTION,
    ...PASS_ENV_OPTION,
    ...MCP_CONFIG_OPTION,
    ...SANDBOX_OPTION,
  });
  if (values.help) {
    io.out(COMMAND_HELP.acp);
    return EXIT.ok;
  }
  expectPositionals('acp', positionals, []);
  // stdout is the protocol's: every line the CLI would print goes to stderr instead.
  const quiet: CliIo = { ...io, out: (line) => io.err(line), ask: undefined };
  const settings = cliSettings('acp', io.env, { flags: values, warn: (line) => io.err(line) });
  const prepared = prepareCliSession('acp', quiet, settings);
  const { serveAcp } = await import('../acp/acp-agent');
  // An editor stopping its agent (SIGTERM) pauses the running turns, so no log is left `running`.
  const stop = new AbortController();
  const off = io.onInterrupt(() => stop.abort());
  try {
    await serveAcp({ prepared, signal: stop.signal });
  } finally {
    off();
  }
  return EXIT.ok;
}
