// Command palette entries. Each accepts its input as arguments too, so tests and other
// extensions can drive Logbook without prompts.
import { apiKeyRemoved, endDemo } from './lm/demo-model';
import * as vscode from 'vscode';
import { API_KEY_SECRET } from './settings/config';
import type { ConversationService } from './conversations/conversation-service';
import { ChatViewProvider } from './chat/chat-view';
import { exportConversation } from './conversations/export';
import type { ReviewController } from './review/review-controller';
import { type Connection, connectModel } from './lm/connect-model';
import { selectModel } from './lm/select-model';
import { verifyAndShow } from './signing/verify';
import { replayConversation } from './conversations/replay-conversation';
import { printableLine } from '../../core/text/printable';
import { errorText } from '../../core/text/l10n';
import { delegatedAgentTarget, REVEAL_DELEGATED_AGENT } from './agents/reveal-delegated-agent';
import { editorContextParts } from './mentions/attachment-text';
import { pickAgent } from './acp/pick-agent';
import { askRemoteTask } from './remote/start-remote-task';
import { agentChangesTitleOf } from './tasks/task-titles';
import { refuseTaskDelete } from './conversations/task-conversation-place';

export function registerCommands(
  context: vscode.ExtensionContext,
  service: ConversationService,
  review: ReviewController,
  log: vscode.LogOutputChannel,
): vscode.Disposable[] {
  const revealChat = () => vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
  /** The conversation a command is about (the argument, else the chat's), or undefined, said. */
  const activeId = (idArg?: unknown) => {
    const id = conversationIdOf(idArg) ?? service.activeId;
    if (!id) void vscode.window.showInformationMessage(vscode.l10n.t('Logbook: no conversation is open.'));
    return id;
  };
  const active = async (idArg?: unknown) => {
    const id = activeId(idArg);
    return id ? service.session(id) : undefined;
  };
  /** The session that answers it: a remote conversation's answers go to its agent-server, as the chat's do. */
  const answering = async (idArg?: unknown) => {
    const id = activeId(idArg);
    return id ? ((await service.remote.of(id)) ?? (await service.session(id))) : undefined;
  };
  /** The remote conversation a command is about (the argument, else the chat's), or why there is none. */
  const remoteOf = async (idArg?: unknown) => {
    const id = conversationIdOf(idArg) ?? service.activeId;
    const remote = id ? await service.remote.of(id) : undefined;
    if (!remote)
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Logbook: the conversation open is not one that runs on an agent-server.'),
      );
    return remote;
  };
  const register = (id: string, fn: (...args: unknown[]) => unknown) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await fn(...args);
      } catch (err) {
        log.error(`${id} failed: ${(err as Error).stack ?? String(err)}`);
        void vscode.window.showErrorMessage(vscode.l10n.t('Logbook: {0}', errorText(err, vscode.l10n)));
        return undefined;
      }
    });

  return [
    register('logbook.startTask', async (taskArg?: unknown) => {
      const asked = await askTask(taskArg, vscode.l10n.t('Logbook: Start Agent Task'));
      if (!asked) return undefined;
      const id = await service.startTaskWith(asked.task, asked.context);
      log.info(`Started conversation ${id}`);
      await revealChat();
      return id;
    }),
    register('logbook.startAgentTaskWith', async (agentArg?: unknown, taskArg?: unknown) => {
      const agent = await pickAgent(agentArg);
      if (!agent) return undefined;
      const asked = await askTask(taskArg, vscode.l10n.t('Logbook: Start Agent Task with…'));
      if (!asked) return undefined;
      const id = await service.startTaskWith(asked.task, asked.context, agent);
      log.info(`Started conversation ${id}`);
      await revealChat();
      return id;
    }),
    register('logbook.startRemoteTask', async (serverArg?: unknown, taskArg?: unknown, dirArg?: unknown) => {
      const title = vscode.l10n.t('Logbook: Start Agent Task on Server');
      const req = await askRemoteTask({ server: serverArg, task: taskArg, workingDir: dirArg }, (t) =>
        askTask(t, title),
      );
      if (!req) return undefined;
      // Shown before its events stream in, as a local task is before its model call.
      const id = await service.remote.start(req, (started) => service.setActive(started));
      await revealChat();
      return id;
    }),
    register('logbook.newConversation', async () => {
      await service.setActive(undefined);
      await revealChat();
    }),
    register('logbook.openConversation', async (idArg?: unknown) => {
      let id = conversationIdOf(idArg);
      if (!id) {
        const pick = await vscode.window.showQuickPick(
          service.list().map((c) => ({
            label: c.title ? printableLine(c.title) : vscode.l10n.t('New conversation'),
            description: c.status,
            detail: c.updated ? new Date(c.updated).toLocaleString() : undefined,
            id: c.id,
          })),
          {
            title: vscode.l10n.t('Logbook: Open Conversation'),
            placeHolder: vscode.l10n.t('Choose a conversation'),
          },
        );
        id = pick?.id;
      }
      if (!id) return;
      await service.setActive(id);
      await revealChat();
    }),
    // A delegated agent in the Conversations view: its card in the parent's chat, opened and focused.
    register(REVEAL_DELEGATED_AGENT, async (arg?: unknown) => {
      const target = delegatedAgentTarget(arg);
      await service.revealChild(target);
      await revealChat();
      return target;
    }),
    register('logbook.renameConversation', async (idArg?: unknown, titleArg?: unknown) => {
      const id = conversationIdOf(idArg) ?? service.activeId;
      const entry = service.list().find((e) => e.id === id);
      if (!id || !entry) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Logbook: no conversation to rename.'));
        return;
      }
      const title =
        typeof titleArg === 'string'
          ? titleArg
          : await vscode.window.showInputBox({
              title: vscode.l10n.t('Logbook: Rename Conversation'),
              value: entry.title ?? '',
              prompt: vscode.l10n.t('The new name, shown in the history and the chat header'),
              validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A name cannot be empty.')),
            });
      if (title === undefined) return;
      await service.rename(id, title);
    }),
    register('logbook.deleteConversation', async (idArg?: unknown, confirmedArg?: unknown) => {
      const id = conversationIdOf(idArg) ?? service.activeId;
      // A task's conversation (its row offers no Delete; the palette may name it): said why not.
      if (id) refuseTaskDelete(service.places.get(id));
      const entry = service.list().find((e) => e.id === id);
      if (!id || !entry) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Logbook: no conversation to delete.'));
        return;
      }
      if (confirmedArg !== true) {
        const remove = vscode.l10n.t('Delete');
        const choice = await vscode.window.showWarningMessage(
          vscode.l10n.t('Delete the conversation "{0}"?', entry.title ?? vscode.l10n.t('New conversation')),
          {
            modal: true,
            detail: vscode.l10n.t(
              'Its event log is removed from disk. Changes the agent made to your files stay.',
            ),
          },
          remove,
        );
        if (choice !== remove) return;
      }
      await service.delete(id);
      log.info(`Deleted conversation ${id}`);
    }),
    // The chat's Pause, Resume and Stop: on an agent-server, its /pause, /run and /interrupt.
    register('logbook.pause', async (idArg?: unknown) => {
      const id = activeId(idArg);
      if (id) await service.pause(id);
    }),
    register('logbook.resume', async (idArg?: unknown) => {
      const id = activeId(idArg);
      if (id) await service.resume(id);
    }),
    register('logbook.stop', async (idArg?: unknown) => {
      const id = activeId(idArg);
      if (id) await service.stop(id);
    }),
    register('logbook.approvePending', async (id?: unknown) => {
      const s = await answering(id);
      if (s) await s.approve(s.header().pendingActionIds);
    }),
    register('logbook.rejectPending', async (id?: unknown, reasonArg?: unknown) => {
      const s = await answering(id);
      if (!s) return;
      const reason =
        typeof reasonArg === 'string'
          ? reasonArg
          : await vscode.window.showInputBox({
              title: vscode.l10n.t('Logbook: Reject'),
              prompt: vscode.l10n.t('Why? (the agent reads this)'),
            });
      if (reason === undefined) return;
      await s.reject(s.header().pendingActionIds, reason);
    }),
    register('logbook.reviewChanges', async (idArg?: unknown) => {
      const id = conversationIdOf(idArg) ?? service.activeId;
      const remote = id ? await service.remote.of(id) : undefined;
      const task = id ? service.header(id)?.task : undefined;
      return remote ? remote.review() : review.showChanges(id, agentChangesTitleOf(task));
    }),
    register('logbook.reviewRemoteChanges', async (idArg?: unknown) => (await remoteOf(idArg))?.review()),
    register('logbook.applyRemoteChanges', async (idArg?: unknown, confirmed?: unknown, links?: unknown) =>
      (await remoteOf(idArg))?.applyHere(
        confirmed === true,
        Array.isArray(links) ? links.filter((l): l is string => typeof l === 'string') : undefined,
      ),
    ),
    register('logbook.selectModel', () => selectModel()),
    register('logbook.connectModel', (given?: unknown) =>
      connectModel(given && typeof given === 'object' ? (given as Partial<Connection>) : undefined),
    ),
    register('logbook.setApiKey', async (keyArg?: unknown) => {
      const key =
        typeof keyArg === 'string'
          ? keyArg
          : await vscode.window.showInputBox({
              title: vscode.l10n.t('Logbook: Set API Key'),
              prompt: vscode.l10n.t(
                'Stored in VS Code secret storage; never written to settings or logs. Leave empty to remove it.',
              ),
              password: true,
              ignoreFocusOut: true,
            });
      if (key === undefined) return;
      // A real key ends the demo model of this window.
      if (key.trim()) endDemo({ apiKey: true });
      else apiKeyRemoved();
      if (key.trim()) await context.secrets.store(API_KEY_SECRET, key.trim());
      else await context.secrets.delete(API_KEY_SECRET);
      void vscode.window.showInformationMessage(
        key.trim() ? vscode.l10n.t('Logbook: API key saved.') : vscode.l10n.t('Logbook: API key removed.'),
      );
    }),
    register('logbook.exportConversation', async (id?: unknown, formatArg?: unknown, targetArg?: unknown) => {
      const s = await active(id);
      if (!s) return undefined;
      return exportConversation(s, formatArg, targetArg);
    }),
    register('logbook.importConversation', async (source?: unknown) => {
      let uri =
        source instanceof vscode.Uri
          ? source
          : typeof source === 'string' && source
            ? vscode.Uri.file(source)
            : undefined;
      if (!uri) {
        const picked = await vscode.window.showOpenDialog({
          title: vscode.l10n.t(
            'Logbook: Import Conversation (an OpenHands conversation folder or V0 trajectory file)',
          ),
          openLabel: vscode.l10n.t('Import'),
          canSelectFiles: true,
          canSelectFolders: true,
          canSelectMany: false,
          defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
        });
        uri = picked?.[0];
      }
      if (!uri) return undefined;
      const id = await service.importConversation(uri.fsPath);
      log.info(`Imported ${uri.fsPath} as conversation ${id}`);
      await revealChat();
      return id;
    }),
    register('logbook.verifyConversation', async (idArg?: unknown) => {
      const id = await conversationToAct(service, idArg, {
        title: vscode.l10n.t('Logbook: Verify Conversation'),
        placeHolder: vscode.l10n.t('Choose a conversation to verify'),
      });
      if (!id) return undefined;
      return verifyAndShow(service, id);
    }),
    // A second argument `{ confirmed: true }` skips the question (the caller asked already).
    register('logbook.replayConversation', async (idArg?: unknown, opts?: unknown) => {
      const id = await conversationToAct(service, idArg, {
        title: vscode.l10n.t('Logbook: Replay Conversation'),
        placeHolder: vscode.l10n.t('Choose a conversation to replay'),
      });
      if (!id) return undefined;
      await revealChat();
      const confirmed = (opts as { confirmed?: unknown } | undefined)?.confirmed === true;
      return replayConversation(context, service, id, confirmed);
    }),
    register('logbook.showLog', () => log.show()),
    register('logbook.openInEditor', () => service.openInEditor()),
  ];
}

/** A conversation id given as a command argument: the id itself, or a Conversations tree item. */
function conversationIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg) return arg;
  const id = (arg as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' && id ? id : undefined;
}

/** The conversation a command names, else the active one, else the one the user picks. */
async function conversationToAct(
  service: ConversationService,
  idArg: unknown,
  pickOptions: { title: string; placeHolder: string },
): Promise<string | undefined> {
  const id = conversationIdOf(idArg) ?? service.activeId;
  if (id) return id;
  const pick = await vscode.window.showQuickPick(
    service.list().map((c) => ({
      label: c.title ? printableLine(c.title) : vscode.l10n.t('New conversation'),
      description: c.status,
      id: c.id,
    })),
    pickOptions,
  );
  return pick?.id;
}

/** The task given as an argument, or asked for with the editor's selection (or open file) as context. */
async function askTask(
  taskArg: unknown,
  title: string,
): Promise<{ task: string; context: string[] } | undefined> {
  if (typeof taskArg === 'string' && taskArg.trim()) return { task: taskArg, context: [] };
  // The editor as it is before the input box takes the focus.
  const editor = vscode.window.activeTextEditor;
  const task = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('What should the agent do?'),
    placeHolder: vscode.l10n.t('e.g. Add input validation to src/math.js and run the tests'),
    ignoreFocusOut: true,
  });
  if (!task?.trim()) return undefined;
  // The editor's context goes with the task: the selection, or else which file is open.
  const context =
    editor?.document.uri.scheme === 'file'
      ? editorContextParts({ selection: true, activeFile: true }, editor)
      : [];
  return { task, context };
}
