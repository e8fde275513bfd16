// "Logbook: Start Agent Task on Server…": which agent-server (a recent one, or a URL typed), the
// task, and the working folder on the server's machine; each can be given as an argument instead.
import * as vscode from 'vscode';
import { recentServers, type RemoteTask } from './remote-conversations';

export async function askRemoteTask(
  args: { server?: unknown; task?: unknown; workingDir?: unknown },
  askTask: (taskArg: unknown) => Promise<{ task: string; context: string[] } | undefined>,
): Promise<RemoteTask | undefined> {
  const server = typeof args.server === 'string' && args.server ? args.server : await pickServer();
  if (!server) return undefined;
  // A bad URL is said before the task is asked for.
  (await import('./remote-session')).normalizeServerUrl(server);
  const asked = await askTask(args.task);
  if (!asked) return undefined;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const workingDir =
    typeof args.workingDir === 'string' && args.workingDir
      ? args.workingDir
      : await vscode.window.showInputBox({
          title: vscode.l10n.t('Logbook: Working Folder on the Server'),
          prompt: vscode.l10n.t("The folder the server's agent works in, on the server's machine."),
          value: folder ?? '',
          ignoreFocusOut: true,
        });
  if (!workingDir?.trim()) return undefined;
  // The editor's context stays here: the server's agent reads its own files.
  return { server, task: asked.task, workingDir: workingDir.trim() };
}

async function pickServer(): Promise<string | undefined> {
  const other = vscode.l10n.t('Another server…');
  const recent = recentServers();
  const picked = recent.length
    ? await vscode.window.showQuickPick([...recent, other], {
        title: vscode.l10n.t('Logbook: Start Agent Task on Server'),
        placeHolder: vscode.l10n.t('The agent-server to run the task on'),
        ignoreFocusOut: true,
      })
    : other;
  if (picked !== other) return picked;
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Logbook: Start Agent Task on Server'),
    prompt: vscode.l10n.t("The agent-server's URL"),
    placeHolder: 'http://build-box:8000',
    ignoreFocusOut: true,
  });
}
