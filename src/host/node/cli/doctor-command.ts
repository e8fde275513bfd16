// `logbook doctor`: everything worth checking when something does not work, in one place: the
// sandbox, the model endpoint and model, the MCP servers (started for the check, then stopped), the
// signing identity (never the key), and the space conversations and checkpoints take, with
// `--clean-checkpoints` to release old checkpoints after saying exactly which and asking.
import { join } from 'node:path';
import {
  type DiagnosticsReport,
  diagnosticsText,
  formatSize,
  hasErrors,
  section,
} from '../../../core/diagnostics/report';
import { llmSettingsFrom } from '../../../core/settings';
import { builtInToolNames } from '../session/agent-tools';
import { endpointRows, probeEndpoint } from '../diagnostics/endpoint-probe';
import { mcpRows, sandboxRows, signingRows, storageRows } from '../diagnostics/rows';
import {
  checkpointUsage,
  cleanUpCheckpoints,
  conversationFolders,
  conversationUsage,
  describeCleanup,
  oldCheckpoints,
} from '../diagnostics/storage-usage';
import { environmentResolver, McpHub } from '../mcp';
import type { CommandSandbox } from '../sandbox';
import { existingKeyDid } from '../signing-key';
import { parseCommandArgs, expectPositionals } from './args';
import { checkpointsRoot } from './checkpoint-env';
import { cliSettings } from './cli-settings';
import { resolvePath } from './conversation-dir';
import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { MCP_CONFIG_OPTION, mcpConfigFrom } from './mcp-option';
import { cliSandbox, SANDBOX_OPTION } from './sandbox-option';
import { cliSigningKeyPath } from './signing';

const DEFAULT_OLDER_THAN_DAYS = 30;
const CLI_WORDS = { setKey: 'set LOGBOOK_API_KEY (or OPENAI_API_KEY)', baseUrl: 'LOGBOOK_BASE_URL' };

export async function doctorCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('doctor', argv, {
    workspace: { type: 'string' },
    'clean-checkpoints': { type: 'boolean' },
    'older-than': { type: 'string' },
    yes: { type: 'boolean' },
    json: { type: 'boolean' },
    ...MCP_CONFIG_OPTION,
    ...SANDBOX_OPTION,
  });
  if (values.help) {
    io.out(COMMAND_HELP.doctor);
    return EXIT.ok;
  }
  expectPositionals('doctor', positionals, []);
  const olderThanDays = parseDays(values['older-than']);
  const workspace = resolvePath(io, values.workspace ?? '.');
  const settings = cliSettings('doctor', io.env, { flags: values, warn: (line) => io.err(line) });

  const sandbox = cliSandbox(settings, io.env, { probeFresh: true });
  const llm = llmSettingsFrom(settings.resolved);
  const probe = await probeEndpoint({ ...llm, probeTimeoutMs: 5_000 });
  const mcpStatus = await checkMcp(values['mcp-config'], workspace, io, sandbox);
  const keyFile = cliSigningKeyPath(settings, io.env);

  const conversationsRoot = join(workspace, '.logbook', 'conversations');
  const conversations = conversationUsage(conversationsRoot, conversationFolders(conversationsRoot));
  const stores = checkpointUsage(checkpointsRoot(settings, io.env));
  const old = oldCheckpoints(stores, { olderThanDays });

  const report: DiagnosticsReport = {
    sections: [
      section('sandbox', sandboxRows(sandbox.report([workspace]))),
      section('model', endpointRows(llm, probe, CLI_WORDS)),
      section(
        'mcp',
        mcpStatus ?? [{ label: 'Servers', value: 'none given (--mcp-config FILE)', status: 'info' }],
      ),
      section('signing', signingRows(existingKeyDid(keyFile), keyFile, keyProblem(keyFile))),
      section('storage', storageRows({ conversations, stores, old, olderThanDays })),
    ],
  };
  io.out(values.json ? JSON.stringify(report) : diagnosticsText(report));
  if (values['clean-checkpoints']) {
    const cleaned = await cleanUp(io, old, values.yes === true, values.json === true);
    if (!cleaned) return EXIT.failure;
  }
  return hasErrors(report) ? EXIT.failure : EXIT.ok;
}

function parseDays(text: string | undefined): number {
  if (text === undefined) return DEFAULT_OLDER_THAN_DAYS;
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n)) {
    throw new UsageError(`logbook doctor: --older-than takes a number of days, not "${text}".`);
  }
  return n;
}

/** The servers of the file, started and stopped again; undefined without a file. */
async function checkMcp(file: string | undefined, workspace: string, io: CliIo, sandbox: CommandSandbox) {
  const config = mcpConfigFrom('doctor', file);
  if (!config) return undefined;
  const hub = new McpHub({
    cwd: workspace,
    baseEnv: process.env,
    resolve: environmentResolver(process.env),
    reservedNames: builtInToolNames(),
    log: (line) => io.err(`[mcp] ${line}`),
    startTimeoutMs: 15_000,
    // In the sandbox `run` starts them in, so what fails here fails there.
    sandbox,
    workspaces: [workspace],
  });
  try {
    await hub.configure(config);
    await hub.source().prepare();
    return mcpRows(hub.status());
  } finally {
    await hub.close();
  }
}

function keyProblem(file: string): string | undefined {
  try {
    existingKeyDid(file);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Says exactly what goes, asks (unless --yes), then releases. False when the user said no. */
async function cleanUp(
  io: CliIo,
  old: Parameters<typeof describeCleanup>[0],
  yes: boolean,
  json: boolean,
): Promise<boolean> {
  const say = json ? io.err : io.out;
  if (!old.length) {
    say('No old checkpoints to clean up.');
    return true;
  }
  say('');
  say('Cleaning up deletes:');
  for (const line of describeCleanup(old)) say(`  ${line}`);
  say('The conversations stay; only restoring their files to those points is no longer possible.');
  if (!yes) {
    // Only a person at a terminal can answer: a script must say --yes.
    const answer = process.stdin.isTTY ? await io.ask?.('Delete these checkpoints? [y/N] ') : undefined;
    if (answer === undefined) {
      io.err('logbook doctor: no answer (stdin is not a terminal); add --yes to clean up without asking.');
      return false;
    }
    if (!/^y(es)?$/i.test(answer.trim())) {
      say('Nothing deleted.');
      return true;
    }
  }
  const { released, freed } = await cleanUpCheckpoints(old);
  say(`Released the checkpoints of ${released} conversation(s); ${formatSize(freed)} freed.`);
  return true;
}
