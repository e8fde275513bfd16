// `logbook replay CONV_DIR`: runs a recorded conversation again, as a regression test for the agent.
// The workspace is restored from the conversation's first checkpoint into a temp folder, the
// recorded model replies are fed in order (no model), the tools run for real there, and each tool
// call's new result is compared with the recorded one (replay-divergence.ts).
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfirmationMode } from '../../../core/agent/settings';
import { type Divergence, firstDivergence, compareCalls } from '../../../core/agent/replay-divergence';
import { checkpointEntries } from '../../../core/checkpoints/timeline';
import { textOf, type Event } from '../../../core/events';
import { RecordedLlmClient, recordedReplies } from '../../../core/llm/recorded-client';
import { llmSettingsFrom } from '../../../core/settings';
import { deriveState } from '../../../core/state';
import { printableLine } from '../../../core/text/printable';
import { isMultiFolderCheckpoint } from '../checkpoints/workspace-store';
import { openNodeConversation } from '../node-session';
import { expectPositionals, parseCommandArgs } from './args';
import { checkpointStore } from './checkpoint-env';
import { cliSettings } from './cli-settings';
import { assertConversationDir, openReadOnly, readEvents, resolvePath } from './conversation-dir';
import { actionWhat } from './event-line';
import { EXIT } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { cliSandbox, SANDBOX_OPTION } from './sandbox-option';
import { readSessionInfo, SESSION_FILE } from './session-file';

/** `replay`'s exit codes: 0 the same results, 1 a failure (no checkpoint, bad usage), 4 a divergence. */
export const REPLAY_EXIT = { same: 0, failure: 1, diverged: 4 } as const;

export async function replayCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('replay', argv, {
    'confirmation-mode': { type: 'string' },
    confirm: { type: 'string' },
    keep: { type: 'boolean' },
    ...SANDBOX_OPTION,
  });
  if (values.help) {
    io.out(COMMAND_HELP.replay);
    return EXIT.ok;
  }
  const [dirArg] = expectPositionals('replay', positionals, ['CONV_DIR']);
  const dir = resolvePath(io, dirArg!);
  assertConversationDir(dir);
  const info = readSessionInfo(dir);
  if (!info)
    throw new Error(`${dir} has no ${SESSION_FILE}: the CLI does not know which workspace it ran in.`);
  // The throwaway copy runs every action unless told otherwise.
  const { confirm, ...flags } = values;
  const settings = cliSettings('replay', io.env, {
    flags: { ...flags, 'confirmation-mode': values['confirmation-mode'] ?? confirm ?? 'never' },
  });
  const log = await openReadOnly(dir);
  let recorded: Event[];
  try {
    ({ events: recorded } = await readEvents(log));
  } finally {
    await log.close();
  }
  const first = checkpointEntries(recorded)[0];
  if (!first)
    throw new Error(
      `The conversation in ${dir} recorded no file checkpoint, so there is no workspace to replay it in ` +
        '(it ran with checkpoints off, or the agent ran no action that can change files). Record it again with checkpoints on.',
    );
  if (isMultiFolderCheckpoint(first.value.checkpoint))
    throw new Error(
      'The first checkpoint covers the folders of a multi-root VS Code window; replay it there.',
    );

  const root = realpathSync(mkdtempSync(join(tmpdir(), 'logbook-replay-')));
  const workspace = join(root, 'workspace');
  const convDir = join(root, 'conversation');
  mkdirSync(workspace);
  try {
    await checkpointStore(info.workspace, settings, io.env).materialize(first.value.checkpoint, workspace);
    io.out(
      `replaying in ${root} (the workspace as checkpoint ${first.value.checkpoint.slice(0, 12)} holds it)`,
    );
    const llm = new RecordedLlmClient(recordedReplies(recorded));
    const { status, events: replayed } = await replayInto(io, settings, {
      workspace,
      convDir,
      llm,
      recorded,
    });
    const calls = compareCalls(recorded, replayed);
    const divergence = firstDivergence(calls, {
      folders: [
        { path: info.workspace, as: '<workspace>' },
        { path: workspace, as: '<workspace>' },
        { path: dir, as: '<conversation>' },
        { path: convDir, as: '<conversation>' },
      ],
    });
    if (divergence) {
      for (const line of divergenceLines(divergence, calls.length, status)) io.out(printableLine(line));
      return REPLAY_EXIT.diverged;
    }
    const recordedEnd = deriveState(recorded).status;
    if (status === 'error' && recordedEnd !== 'error') {
      io.out(
        `divergence at the end: the replay stopped on an error, the recording did not (${recordedEnd}).`,
      );
      return REPLAY_EXIT.diverged;
    }
    io.out(`replayed ${calls.length} action${calls.length === 1 ? '' : 's'}, no divergence`);
    return REPLAY_EXIT.same;
  } finally {
    if (values.keep) io.out(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

/** Runs the recorded user messages through a fresh conversation in `workspace`; returns its log. */
async function replayInto(
  io: CliIo,
  settings: ReturnType<typeof cliSettings>,
  t: { workspace: string; convDir: string; llm: RecordedLlmClient; recorded: readonly Event[] },
): Promise<{ status: string; events: Event[] }> {
  const session = await openNodeConversation({
    storeDir: t.convDir,
    workspace: t.workspace,
    llmSettings: llmSettingsFrom(settings.resolved),
    llm: t.llm,
    confirmationMode: settings.get<ConfirmationMode>('confirmation.mode'),
    id: randomUUID(),
    maxIterations: settings.get('maxIterations'),
    maxToolCallsPerReply: settings.get('maxToolCallsPerReply'),
    passEnvironment: settings.get('terminal.passEnvironment'),
    // Summaries would ask the model, which a replay does not have.
    condenser: null,
    sandbox: cliSandbox(settings, io.env),
  });
  try {
    const { conversation } = session;
    for (const m of t.recorded) {
      if (m.kind !== 'MessageEvent' || m.source !== 'user') continue;
      const [head, ...attachments] = m.llm_message.content.filter((c) => c.type === 'text');
      await conversation.sendMessage(head ? textOf([head]) : '', {
        attachments: attachments.map((a) => textOf([a])),
      });
      let status = await conversation.run();
      while (status === 'waiting_for_confirmation') {
        const answer = io.ask ? await io.ask('Run the actions the replay waits on? [y/N] ') : undefined;
        if (!answer || !/^y(es)?$/i.test(answer.trim())) break;
        await conversation.approve();
        status = await conversation.run();
      }
      if (status !== 'finished' && status !== 'idle') break;
    }
    return { status: conversation.status, events: await conversation.events() };
  } finally {
    await session.close();
  }
}

function divergenceLines(d: Divergence, total: number, status: string): string[] {
  const what = d.action && d.action.kind === 'ActionEvent' ? actionWhat(d.action) : d.tool;
  const lines = [
    `divergence at event ${d.index} (action ${d.ordinal} of ${total}): ${d.tool}: ${what}`,
    `  recorded: ${oneLine(d.recorded)}`,
  ];
  if (d.replayed === undefined) lines.push(`  replayed: no result (the replay stopped ${status} before it)`);
  else {
    lines.push(`  replayed: ${oneLine(d.replayed)}`);
    lines.push('  diff (- recorded, + replayed):', ...d.diff.map((l) => `    ${l}`));
  }
  return lines;
}

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}
