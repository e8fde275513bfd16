// Command palette entries. Each accepts its input as arguments too, so tests and other
// extensions can drive Logbook without UI prompts.
import * as vscode from 'vscode';
import type { ConversationService } from './conversation-service';
import { ChatViewProvider } from './chat-view';

export function registerCommands(
  service: ConversationService,
  log: vscode.LogOutputChannel,
): vscode.Disposable[] {
  const revealChat = () => vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
  return [
    vscode.commands.registerCommand('logbook.startTask', async (taskArg?: unknown) => {
      const task =
        typeof taskArg === 'string' && taskArg.trim()
          ? taskArg
          : await vscode.window.showInputBox({
              title: 'Logbook: Start Agent Task',
              prompt: 'What should the agent do?',
              placeHolder: 'e.g. Add input validation to src/math.js and run the tests',
              ignoreFocusOut: true,
            });
      if (!task?.trim()) return undefined;
      const handle = await service.startTask(task);
      log.info(`Started conversation ${handle.id}: ${handle.title}`);
      await revealChat();
      return handle.id;
    }),
    vscode.commands.registerCommand('logbook.newConversation', async () => {
      service.setActive(undefined);
      await revealChat();
    }),
    vscode.commands.registerCommand('logbook.openConversation', async (idArg?: unknown) => {
      let id = typeof idArg === 'string' ? idArg : undefined;
      if (!id) {
        const pick = await vscode.window.showQuickPick(
          service.list().map((c) => ({ label: c.title, description: c.status, id: c.id })),
          { title: 'Logbook: Open Conversation', placeHolder: 'Choose a conversation' },
        );
        id = pick?.id;
      }
      const handle = id ? service.get(id) : undefined;
      if (!handle) return;
      service.setActive(handle);
      await revealChat();
    }),
    vscode.commands.registerCommand('logbook.pause', () => log.info('Pause requested')),
    vscode.commands.registerCommand('logbook.resume', () => log.info('Resume requested')),
    vscode.commands.registerCommand('logbook.stop', () => log.info('Stop requested')),
  ];
}
