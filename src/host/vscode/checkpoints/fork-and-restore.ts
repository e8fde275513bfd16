// "Continue from here" (a fork at an event, with the offer to restore the files too) and "Restore
// files to here", as the conversation service runs them.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { bindAgent, boundAgent } from '../acp/editor-agent';
import * as vscode from 'vscode';
import { checkpointAt, checkpointEntries, lastAfterState } from '../../../core/checkpoints/timeline';
import type { SigningIdentity } from '../../../core/signing';
import type { WorkspaceCheckpointStore } from '../../node/checkpoints/workspace-store';
import type { ConversationSession } from '../conversations/conversation-session';
import { editorStoreDir } from './checkpoints';
import { forkConversation } from './fork';
import { restoreFilesTo, type RestoreOutcome, type RestoreUi } from './restore-files';
import { errorText } from '../../../core/text/l10n';

/** What forking and restoring need of the service that owns the conversations. */
export interface ForkContext {
  root(): string;
  log(): Pick<vscode.LogOutputChannel, 'warn' | 'error'>;
  session(id: string): Promise<ConversationSession>;
  /** A conversation's checkpoints: a worktree task's are its worktree's. */
  checkpointStore(id: string): WorkspaceCheckpointStore;
  /** The folder a conversation works in (a worktree task's worktree), if any. */
  workspace(id: string): string | undefined;
  /** The conversation is a worktree task's (Continue from here makes a new task of it). */
  isTask(id: string): boolean;
  signing(): Promise<SigningIdentity>;
  headFile(id: string): string;
  /** A new conversation (the fork) was opened: list it and show it. */
  opened(s: ConversationSession): Promise<void>;
}

export async function forkFrom(
  ctx: ForkContext,
  conversationId: string,
  eventId: string,
  ui: { offerRestore?: (paths: string[]) => Promise<boolean>; restore?: RestoreUi } = {},
): Promise<{ forkId: string; offer?: Promise<RestoreOutcome | undefined> }> {
  if (ctx.isTask(conversationId)) return { forkId: await continueTask(ctx, conversationId, eventId) };
  const source = await ctx.session(conversationId);
  const fork = await forkAndOpen(ctx, conversationId, eventId);
  const folder = ctx.workspace(conversationId);
  // The checkpoint of "here" is in the source: an action's is recorded just after it.
  const entry = folder ? checkpointAt(await source.conversation.events(), eventId) : undefined;
  if (!folder || !entry) return { forkId: fork.id };
  const store = ctx.checkpointStore(conversationId);
  const plan = await store.plan(entry.value.checkpoint).catch(() => undefined);
  if (!plan?.changes.length) return { forkId: fork.id };
  const offerRestore = ui.offerRestore ?? offerRestoreAfterFork;
  const offer = offerRestore(plan.changes.map((c) => c.path)).then((yes) =>
    yes
      ? restoreFilesTo(
          { session: source, store, fork: () => Promise.resolve(fork), recordIn: fork },
          eventId,
          ui.restore,
        )
      : undefined,
  );
  offer.catch((err: unknown) => {
    ctx.log().error(`Restoring files after continuing from here failed: ${String(err)}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Logbook: {0}', errorText(err, vscode.l10n)));
  });
  return { forkId: fork.id, offer };
}

/**
 * A worktree task's conversation continues as a new task, with a branch and worktree of its own
 * holding the files at that point (tasks/task-continue.ts, in the Tasks bundle): a fork here would be
 * a conversation of the window, working in the main working tree the task was kept off.
 */
async function continueTask(ctx: ForkContext, conversationId: string, eventId: string): Promise<string> {
  const source = await ctx.session(conversationId);
  const store = ctx.checkpointStore(conversationId) as WorkspaceCheckpointStore & {
    materialize?(checkpoint: string, target: string): Promise<void>;
  };
  const signing = await ctx.signing();
  return vscode.commands.executeCommand<string>('logbook.tasks.continueFrom', {
    worktree: ctx.workspace(conversationId),
    eventId,
    events: await source.conversation.events(),
    fork: (dir: string, chain: { conversationId: string; headFile: string }) =>
      forkConversation(source, eventId, dir, signing, chain),
    materialize: (checkpoint: string, target: string) => {
      if (!store.materialize) throw new Error('The task has no checkpoints of its own to continue from.');
      return store.materialize(checkpoint, target);
    },
    storeDirOf: (worktree: string) => editorStoreDir(ctx.root(), worktree),
  });
}

/** Forks and opens the fork; resolves to its session. */
async function forkAndOpen(
  ctx: ForkContext,
  conversationId: string,
  eventId: string,
): Promise<ConversationSession> {
  refuseTaskFork(ctx, conversationId);
  const source = await ctx.session(conversationId);
  const id = randomUUID();
  await forkConversation(source, eventId, join(ctx.root(), id), await ctx.signing(), {
    conversationId: id,
    headFile: ctx.headFile(id),
  });
  // A fork of a conversation an external agent ran is that agent's too (told the turns it forks).
  const agent = boundAgent(source.dir);
  if (agent) bindAgent(join(ctx.root(), id), agent);
  const s = await ctx.session(id);
  await adoptCheckpoints(ctx, s);
  await ctx.opened(s);
  return s;
}

/** The fork's copied checkpoint events stay restorable when the conversation it came from is deleted. */
async function adoptCheckpoints(ctx: ForkContext, fork: ConversationSession): Promise<void> {
  const folder = ctx.workspace(fork.id);
  const events = await fork.conversation.events();
  const last = checkpointEntries(events).pop();
  if (!folder || !last) return;
  // And the newest after-state it copied: the restore preview compares them to name user edits.
  const after = lastAfterState(events);
  await ctx
    .checkpointStore(fork.id)
    .adopt(fork.id, last.value.checkpoint, after)
    .catch((err: unknown) =>
      ctx.log().warn(`Keeping the checkpoints of fork ${fork.id} failed: ${String(err)}`),
    );
}

export async function restoreFilesAt(
  ctx: ForkContext,
  conversationId: string,
  eventId: string,
  ui?: RestoreUi,
): Promise<RestoreOutcome> {
  const folder = ctx.workspace(conversationId);
  if (!folder) throw new Error(vscode.l10n.t('Restoring files needs a workspace folder.'));
  const session = await ctx.session(conversationId);
  if (session.conversation.isRunning) {
    throw new Error('The agent is running in this conversation: pause or stop it before restoring files.');
  }
  return restoreFilesTo(
    {
      session,
      // A task's checkpoints restore its worktree, never the window's folder.
      store: ctx.checkpointStore(conversationId),
      fork: (id) => forkAndOpen(ctx, conversationId, id),
      canFork: !ctx.isTask(conversationId),
    },
    eventId,
    ui,
  );
}

/**
 * A fork in the window would be a conversation of the window, working in its folder: a worktree
 * task's history continued there could write the main working tree the task was kept off.
 */
function refuseTaskFork(ctx: ForkContext, conversationId: string): void {
  if (ctx.isTask(conversationId))
    throw new Error(
      vscode.l10n.t(
        "A worktree task's conversation is not forked into the window: use Continue from here, which makes a new task of it.",
      ),
    );
}

/** The editor's offer after "Continue from here": a notification, answered whenever the user likes. */
async function offerRestoreAfterFork(paths: string[]): Promise<boolean> {
  const files = paths.length;
  const restore = vscode.l10n.t('Restore Files…');
  const choice = await vscode.window.showInformationMessage(
    files === 1
      ? vscode.l10n.t('Logbook: continued from here. 1 file has changed since this point.')
      : vscode.l10n.t('Logbook: continued from here. {0} files have changed since this point.', files),
    restore,
  );
  return choice === restore;
}
