// Running a recorded conversation again, as a regression test for the agent: the workspace is
// restored from the conversation's first checkpoint into a temp folder, the recorded model replies
// are fed in order (no model), the tools run for real there, in the kind of shell the recording
// ran its commands in, and each tool call's new result is compared with the recorded one
// (replay-divergence.ts). A conversation that delegated replays its children too, each with its own
// recorded replies, and their results are compared branch by branch (replay-children.ts).
// `logbook replay` and the editor's Replay
// Conversation command both run it; each only says the outcome in its own way.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Divergence, firstDivergence, compareCalls } from '../../../core/agent/replay-divergence';
import { crossAgentForm } from '../../../core/agent/replay-cross-agent';
import { type FolderMap, mapCallArguments, outsideTheCopy } from '../../../core/agent/replay-paths';
import { checkpointEntries } from '../../../core/checkpoints/timeline';
import { type ActionEvent, textOf, type Event } from '../../../core/events';
import { RecordedLlmClient, recordedReplies } from '../../../core/llm/recorded-client';
import type { LlmResponse } from '../../../core/llm/types';
import { deriveState, type ShellStartup } from '../../../core/state';
import { isMultiFolderCheckpoint } from '../checkpoints/workspace-store';
import { replayAgents } from './replay-agents';
import { mainAgentSession } from '../agents/main-agent';
import { NodeTerminalPort } from '../ports';
import { type NodeSessionOptions, openNodeConversation } from '../node-session';
import {
  type ChildLog,
  childLogs,
  firstChildDivergence,
  replayChildOpener,
  usesAgents,
} from './replay-children';

/** What a replay found. */
export type ReplayOutcome =
  | { kind: 'same'; actions: number }
  /** `branch`: the delegated agent it diverged in (absent: the conversation's own agent). */
  | { kind: 'diverged'; divergence: Divergence; actions: number; status: string; branch?: string }
  /** Every result matched, but the replay stopped on an error the recording did not. */
  | { kind: 'error-end'; actions: number; recordedEnd: string };

export interface ReplayRequest {
  /** The recording's events, in order. */
  recorded: readonly Event[];
  /** Where the recording ran, and its log folder: both stand for the same words as the copy's. */
  recordedWorkspace: string;
  recordedDir: string;
  /**
   * What the copy starts as, when not the recording's first checkpoint (a remote conversation's
   * base commit): passed to `materialize`.
   */
  start?: string;
  /**
   * The recording's tools were another agent's (a remote conversation's server): compare what
   * both state of a result (replay-cross-agent.ts), not its words.
   */
  crossAgent?: boolean;
  /** Writes a checkpoint's files into an empty folder (the store the recording checkpointed into). */
  materialize(checkpoint: string, target: string): Promise<void>;
  /** The session's settings; the folders, the model and the id are the replay's own. */
  session: Omit<NodeSessionOptions, 'storeDir' | 'workspace' | 'llm' | 'id' | 'condenser' | 'shellStartup'>;
  /**
   * The shell of a recording that does not say which it ran in (older logs): its host's kind
   * (an editor's terminal reads the user's startup files). Default none, a plain shell.
   */
  shellOfOlderLogs?: ShellStartup;
  /** Called once the copy is ready, with its folder and the checkpoint it holds. */
  onStart?(root: string, checkpoint: string): void;
  /** Asked when the replay waits for confirmation (confirmation mode other than never): run them? */
  approve?(): Promise<boolean>;
  /** Keep the temp folder (else removed at the end). */
  keep?: boolean;
  /**
   * Replay only up to the event at this position of `recorded` (`replay --to`): the replies and
   * user messages after it are not sent, and only the calls up to it are compared.
   */
  stopAfter?: number;
  /** Where the user's agent definitions are found (XDG_CONFIG_HOME); default this process's. */
  env?: NodeJS.ProcessEnv;
}

/** The first checkpoint, the workspace a replay starts from; an error in words when there is none. */
export function replayStart(recorded: readonly Event[], dir: string): string {
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
  return first.value.checkpoint;
}

export async function replayRecorded(req: ReplayRequest): Promise<ReplayOutcome> {
  const checkpoint = req.start ?? replayStart(req.recorded, req.recordedDir);
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'logbook-replay-')));
  const workspace = join(root, 'workspace');
  const convDir = join(root, 'conversation');
  mkdirSync(workspace);
  try {
    await req.materialize(checkpoint, workspace);
    req.onStart?.(root, checkpoint);
    const inCopy = copyMapper([
      { from: req.recordedWorkspace, to: workspace },
      { from: req.recordedDir, to: convDir },
    ]);
    const upTo = req.stopAfter === undefined ? req.recorded : req.recorded.slice(0, req.stopAfter + 1);
    const replies = recordedReplies(upTo);
    // Cut short, the agent's next request is answered with an end, not an error.
    if (upTo !== req.recorded) replies.push(endHere(replies.length));
    const llm = new RecordedLlmClient(inCopy(replies));
    const shell = deriveState(req.recorded).shell?.startup ?? req.shellOfOlderLogs ?? 'none';
    const shellStartup = await startupOutput(req, workspace, shell);
    const children = await childLogs(req.recordedDir, req.recorded);
    const { status, events: replayed } = await replayInto(req, {
      root,
      workspace,
      convDir,
      llm,
      shell,
      children,
      inCopy,
      upTo,
    });
    // The results come from the whole recording: a call kept may have its result after the point.
    const kept = callIds(upTo);
    const form = req.crossAgent ? crossAgentForm : undefined;
    const calls = compareCalls(req.recorded, replayed, form).filter((c) => kept.has(c.callId));
    const normaliser = {
      shellStartup,
      folders: [
        { path: req.recordedWorkspace, as: '<workspace>' },
        { path: workspace, as: '<workspace>' },
        { path: req.recordedDir, as: '<conversation>' },
        { path: convDir, as: '<conversation>' },
      ],
    };
    const divergence = firstDivergence(calls, normaliser);
    if (divergence) return { kind: 'diverged', divergence, actions: calls.length, status };
    if (children.length && upTo === req.recorded) {
      const inChild = firstChildDivergence(children, await childLogs(convDir, replayed), normaliser);
      if (inChild) return { kind: 'diverged', ...inChild };
    }
    const recordedEnd = deriveState(upTo).status;
    if (status === 'error' && recordedEnd !== 'error')
      return { kind: 'error-end', actions: calls.length, recordedEnd };
    return { kind: 'same', actions: calls.length };
  } finally {
    // The replay ran in a narrower copy of it; the host's own (the startup probe's) ends here.
    await req.session.sandbox?.dispose();
    if (!req.keep) rmSync(root, { recursive: true, force: true });
  }
}

/** Runs the recorded user messages through a fresh conversation in `workspace`; returns its log. */
async function replayInto(
  req: ReplayRequest,
  t: {
    root: string;
    workspace: string;
    convDir: string;
    llm: RecordedLlmClient;
    shell: ShellStartup;
    children: readonly ChildLog[];
    inCopy: (replies: LlmResponse[]) => LlmResponse[];
    upTo: readonly Event[];
  },
): Promise<{ status: string; events: Event[] }> {
  const id = randomUUID();
  const sandbox = req.session.sandbox?.onlyWorkspacesWritable();
  const base = {
    ...req.session,
    shellStartup: t.shell,
    workspace: t.workspace,
    // Summaries would ask the model, which a replay does not have.
    condenser: null,
    // The copy is the only folder the replay may touch: commands write nowhere else (the
    // sandbox's folders from the settings are left out) and no tool is handed a path outside it.
    ...(sandbox ? { sandbox } : {}),
    boundary: (action: ActionEvent) => outsideTheCopy(action, t.root, t.workspace),
  };
  // The agents the recording handed work to, defined as they are now (the copy's and the user's),
  // less those held in the recorded workspace.
  const main = usesAgents(req.recorded)
    ? mainAgentSession({
        agents: replayAgents(t.workspace, req.recordedWorkspace, req.env ?? process.env),
        parentDir: t.convDir,
        parentId: id,
        // The replay's own settings: its children get no more than its main agent.
        caps: () => ({
          ...base.settings,
          ...(base.confirmationMode ? { confirmationMode: base.confirmationMode } : {}),
          ...(base.maxIterations !== undefined ? { maxIterations: base.maxIterations } : {}),
        }),
        openChild: replayChildOpener(base, t.children, t.inCopy),
      })
    : undefined;
  const session = await openNodeConversation({
    ...base,
    storeDir: t.convDir,
    llm: t.llm,
    id,
    ...(main ? { tools: main.tools, agent: main.agent } : {}),
  });
  try {
    const { conversation } = session;
    for (const m of t.upTo) {
      if (m.kind !== 'MessageEvent' || m.source !== 'user') continue;
      const [head, ...attachments] = m.llm_message.content.filter((c) => c.type === 'text');
      await conversation.sendMessage(head ? textOf([head]) : '', {
        attachments: attachments.map((a) => textOf([a])),
      });
      let status = await conversation.run();
      while (status === 'waiting_for_confirmation') {
        if (!req.approve || !(await req.approve())) break;
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

/** The ids of the tool calls `events` record. */
function callIds(events: readonly Event[]): Set<string> {
  const ids = new Set<string>();
  for (const e of events) {
    if (e.kind === 'ActionEvent' || e.kind === 'AgentErrorEvent') if (e.tool_call) ids.add(e.tool_call.id);
  }
  return ids;
}

/** The reply that ends a replay cut short at a point. */
function endHere(n: number): LlmResponse {
  return {
    id: `replay-end-${n}`,
    model: 'recorded',
    content: 'The replay stops here, at the point it was asked to.',
    reasoning: null,
    toolCalls: [],
    finishReason: 'stop',
    usage: null,
    cost: 0,
    costSource: 'unknown',
    latencyMs: 0,
  };
}

/** The recorded replies with the recording's folders in their tool calls replaced by the copy's. */
function copyMapper(maps: readonly FolderMap[]): (replies: LlmResponse[]) => LlmResponse[] {
  return (replies) =>
    replies.map((r) => ({
      ...r,
      toolCalls: r.toolCalls.map((c) => ({ ...c, arguments: mapCallArguments(c.arguments, maps) })),
    }));
}

/**
 * What a shell of the replay's kind prints as it starts, before any command (a startup file's
 * warnings): a recorded terminal may have shown it at the start of a command's output.
 */
async function startupOutput(req: ReplayRequest, workspace: string, shell: ShellStartup): Promise<string> {
  if (shell === 'none') return '';
  const sandbox = req.session.sandbox;
  const probe = new NodeTerminalPort({
    cwd: workspace,
    startup: shell,
    passEnvironment: req.session.passEnvironment ?? [],
    ...(sandbox ? { sandbox: { sandbox, workspaces: [workspace], readOnly: () => false } } : {}),
  });
  try {
    await probe.run('true', { timeoutMs: 10_000 });
    return probe.startupOutput;
  } catch {
    return ''; // A shell that cannot start fails the replay itself, in words.
  } finally {
    probe.dispose();
  }
}
