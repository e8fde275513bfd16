// Extension entry point: wires the VS Code adapters around the conversation service. Activation
// only constructs objects and reads the small conversation index; no network until a task runs.
import * as vscode from 'vscode';
import {
  ACCEPT_AGENT_DEFINITION_COMMAND,
  acceptAgentDefinition,
  whenDefinitionAccepted,
} from './agents/held-agents';
import { ChatViewProvider } from './chat/chat-view';
import { openChatInEditor, registerChatPanelSerializer } from './chat/chat-panel';
import { registerCommands } from './commands';
import { ConversationService } from './conversations/conversation-service';
import { ConversationsTree } from './conversations/conversations-tree';
import { registerReview } from './review/register-review';
import type { ReviewController } from './review/review-controller';
import { createStatusBar } from './chat/status-bar';
import { connectReview } from './review/review-bridge';
import { connectEditProposals } from './review/edit-proposals';
import { openActionDiff } from './review/open-diff';
import { redactingLog } from './secrets/redacting-log';
import type { NamedSecret } from '../../core/secrets';
import { addMcpServer } from './mcp/add-mcp-server';
import { registerSandboxStatus } from './sandbox/sandbox-status';
import { registerCheckpointDocuments } from './checkpoints/checkpoint-documents';
import { registerDiagnostics } from './diagnostics/diagnostics-view';
import { registerShowAgents } from './agents/show-agents';
import { registerTasks } from './tasks/register-tasks';
import { registerDemoModel } from './lm/demo-model';
import { openWalkthroughOnce, registerWalkthrough } from './walkthrough';
import { webviewL10n } from './chat/webview-l10n';
import { errorText } from '../../core/text/l10n';
import { watchRenamedSettings } from './settings/renamed-settings';
import { keepAcceptancesIn } from './settings/config';
import {
  ACCEPT_WORKSPACE_SETTING_COMMAND,
  acceptWorkspaceSetting,
  watchIgnoredWorkspaceSettings,
} from './settings/workspace-settings-notice';

export interface LogbookApi {
  readonly service: ConversationService;
  /** the inline review of agent edits (what each conversation changed) */
  readonly review: ReviewController;
  readonly ready: Promise<void>;
  /** The Output channel, secrets redacted from every line */
  readonly log: vscode.LogOutputChannel;
  /** this window's log folder for the extension (the channel's file is under its parent) */
  readonly logUri: vscode.Uri;
  /** What the first activation after an install does: opens the walkthrough unless it was before. */
  readonly openWalkthroughOnce: () => ReturnType<typeof openWalkthroughOnce>;
}

export function activate(context: vscode.ExtensionContext): LogbookApi {
  // Bound late: the secrets are known to the service, which itself logs to this channel.
  let knownSecrets: () => readonly NamedSecret[] = () => [];
  const log = redactingLog(vscode.window.createOutputChannel('Logbook', { log: true }), () => knownSecrets());
  // Before any setting is read: which workspace values of guarding settings the user accepted.
  keepAcceptancesIn(context.globalState);
  // Before any setting is read for a task: values under old keys move to their new ones.
  const renamedSettings = watchRenamedSettings(log);
  const review = registerReview(context);
  const service: ConversationService = new ConversationService(context, log, {
    openInEditor: async () => {
      openChatInEditor(context, service, log);
    },
    openDiff: (conversationId, actionId) => openActionDiff(service, review, conversationId, actionId),
    userEditNotes: (conversationId) => review.takeUserEdits(conversationId),
  });
  knownSecrets = () => service.knownSecrets;
  // A definition accepted here is recorded in, and used by, the conversations open in this window.
  whenDefinitionAccepted((accepted) => service.definitionAccepted(accepted));
  const chat = new ChatViewProvider(context.extensionUri, service, log, webviewL10n);
  context.subscriptions.push(
    log,
    renamedSettings.disposable,
    watchIgnoredWorkspaceSettings(log),
    vscode.commands.registerCommand(ACCEPT_WORKSPACE_SETTING_COMMAND, (key?: unknown) =>
      acceptWorkspaceSetting(log, key),
    ),
    vscode.commands.registerCommand(
      ACCEPT_AGENT_DEFINITION_COMMAND,
      (name?: unknown, fingerprint?: unknown) => acceptAgentDefinition(log, name, fingerprint),
    ),
    chat,
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, chat),
    registerChatPanelSerializer(context, service, log),
    vscode.window.createTreeView('logbook.conversations', {
      treeDataProvider: new ConversationsTree(service, log),
    }),
    createStatusBar(service),
    registerCheckpointDocuments((id) => service.checkpointStoreOf(id), service.onDidAppend),
    connectReview(service, review, context),
    // A deleted conversation's edits stay in the files; its review decorations go with it.
    service.onDidDelete((id) => review.clear(id)),
    connectEditProposals(service, review, log),
    ...registerCommands(context, service, review, log),
    registerSandboxStatus(context),
    ...registerDiagnostics(context, service),
    ...registerShowAgents(),
    ...registerTasks(context, log, service, review),
    ...registerDemoModel(),
    ...registerWalkthrough(context, () => chat.inView),
    vscode.commands.registerCommand('logbook.addMcpServer', (arg?: unknown) =>
      addMcpServer(context.secrets, arg).catch((err: unknown) => {
        void vscode.window.showErrorMessage(vscode.l10n.t('Logbook: {0}', errorText(err, vscode.l10n)));
        return undefined;
      }),
    ),
    vscode.workspace.onDidGrantWorkspaceTrust(() =>
      log.info('Workspace trusted: tools are enabled for the next step.'),
    ),
  );
  if (!vscode.workspace.isTrusted) {
    log.info('This workspace is not trusted: Logbook can chat but runs no tool and makes no edit.');
  }
  const ready = Promise.all([
    renamedSettings.first,
    service.initialize().catch((err: unknown) => log.error(`Could not load conversations: ${String(err)}`)),
  ]).then(() => undefined);
  log.info('Logbook activated');
  activeService = service;
  return {
    service,
    review,
    ready,
    log,
    logUri: context.logUri,
    openWalkthroughOnce: () => openWalkthroughOnce(context.globalState, () => chat.inView),
  };
}

let activeService: ConversationService | undefined;

/** Closes every open log (releasing its writer lock) so a reloaded window can take over at once. */
export async function deactivate(): Promise<void> {
  await activeService?.dispose();
  activeService = undefined;
}
