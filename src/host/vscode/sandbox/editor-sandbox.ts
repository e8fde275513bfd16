// The sandbox of one conversation in the editor: CommandSandbox built from the `logbook.sandbox*`
// settings as they are when the conversation opens (the allow list is read at each connection),
// with Logbook's own folders (its logs, its conversations, the scripts that start terminals)
// among what commands cannot read.
import { dirname, join } from 'node:path';
import type * as vscode from 'vscode';
import { CommandSandbox } from '../../node/sandbox';
import { HostPrompt } from './host-prompt';
import { workspaceHome } from '../storage/workspace-home';
import {
  readAllowedHosts,
  readDenyRead,
  readHomeReadable,
  readSandboxSetting,
  readWritable,
  readAllowUnixSockets,
} from './sandbox-settings';

export interface EditorSandbox {
  sandbox: CommandSandbox;
  /** Where the integrated terminal's launcher scripts are written (see sandboxed-shell.ts). */
  launcherDir: string;
}

/** The extension's folders a command must not read. */
export function ownFolders(context: vscode.ExtensionContext): string[] {
  const own = [context.globalStorageUri, context.storageUri, context.logUri]
    .filter((u): u is vscode.Uri => u !== undefined)
    .map((u) => u.fsPath);
  // The workspace's own storage folder holds the conversations when this window got another one;
  // the folder of every workspace's storage holds other workspaces' conversations and checkpoints.
  if (context.storageUri) {
    const storage = context.storageUri.fsPath;
    own.push(workspaceHome(storage).home, dirname(dirname(storage)));
  }
  return [...new Set(own)];
}

export function launcherDir(context: vscode.ExtensionContext): string {
  return join(context.globalStorageUri.fsPath, 'sandbox-shells');
}

export function createEditorSandbox(
  context: vscode.ExtensionContext,
  prompt: HostPrompt = new HostPrompt(),
): EditorSandbox {
  const sandbox = new CommandSandbox({
    setting: readSandboxSetting(),
    allowedHosts: readAllowedHosts,
    askHost: (host) => prompt.allows(host),
    denyRead: readDenyRead(),
    homeReadable: readHomeReadable(),
    writable: readWritable(),
    allowUnixSockets: readAllowUnixSockets(),
    ownSecrets: ownFolders(context),
    // code-server's Node; in desktop VS Code the Electron binary, which the bridge runs as Node.
    node: process.execPath,
  });
  return { sandbox, launcherDir: launcherDir(context) };
}
