// Shared by host suites: the activated extension's API and a scripted model wired into settings.
import * as assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ChatController } from '../../../src/host/vscode/chat/chat-view';
import type { LogbookApi } from '../../../src/host/vscode/extension';
import { startScriptedLlm, type Scenario, type ScriptedLlm } from '../../support/llm-server';
import { type HostMessage, parseHostMessage } from '../../../src/protocol/messages';
import { until } from '../../support/poll';

export const EXTENSION_ID = 'logbook.logbook-agent';

export async function logbook(): Promise<LogbookApi> {
  const ext = vscode.extensions.getExtension<LogbookApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in this extension host`);
  const api = await ext.activate();
  await api.ready;
  return api;
}

/** Starts a scripted model and points Logbook's settings at it; `close` restores the settings. */
export async function scriptedModel(scenario: Scenario): Promise<ScriptedLlm> {
  const llm = await startScriptedLlm({ scenario });
  const cfg = vscode.workspace.getConfiguration('logbook');
  await cfg.update('model.baseURL', llm.baseUrl, vscode.ConfigurationTarget.Global);
  await cfg.update('model.name', 'scripted-model', vscode.ConfigurationTarget.Global);
  const close = llm.close.bind(llm);
  llm.close = async () => {
    await cfg.update('model.baseURL', undefined, vscode.ConfigurationTarget.Global);
    await cfg.update('model.name', undefined, vscode.ConfigurationTarget.Global);
    await close();
  };
  return llm;
}

/**
 * The `logbook` CLI of this extension (the same core and log) run as its own process against the
 * scripted model, as another window or a terminal would run it.
 */
export function spawnCli(args: string[], llm: ScriptedLlm, env: Record<string, string> = {}): ChildProcess {
  const cli = join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'cli.js');
  return spawn(process.execPath, [cli, ...args], {
    env: {
      ...process.env,
      ELECTRON_RUN_AS_NODE: '1',
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: 'test-key',
      LOGBOOK_MODEL: 'scripted-model',
      ...env,
    },
    stdio: 'ignore',
  });
}

export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the host tests need a workspace folder');
  return folder.uri.fsPath;
}

/** A webview stand-in that records what the controller posts (after the webview's own validation). */
export function recordingWebview() {
  const posted: HostMessage[] = [];
  let deliver: (m: unknown) => void = () => undefined;
  return {
    posted,
    send: (m: unknown) => deliver(m),
    port: {
      postMessage: async (m: unknown) => {
        const checked = parseHostMessage(structuredClone(m));
        assert.ok(checked.ok, checked.ok ? '' : checked.error);
        posted.push(checked.value);
        return true;
      },
      onDidReceiveMessage: (listener: (m: unknown) => void) => {
        deliver = listener;
        return { dispose: () => (deliver = () => undefined) };
      },
    },
  };
}

export { holdsWithin, until, untilValue } from '../../support/poll';

/**
 * The chat panel as a user starts a task from it: a ChatController over a recording webview, on the
 * empty state, with `text` sent from the composer, and the conversation that started. Warnings are
 * collected in `warned`; an error the host logs fails the test. The caller disposes the controller.
 */
export async function chatTask(text: string) {
  const { service } = await logbook();
  await service.setActive(undefined);
  const view = recordingWebview();
  const warned: string[] = [];
  const log = {
    info: () => undefined,
    warn: (m: string) => void warned.push(m),
    error: (m: string) => assert.fail(m),
  };
  const controller = new ChatController(view.port, service, log);
  try {
    view.send({ type: 'ready', conversationId: null, lastSeq: -1 });
    await until(() => view.posted.some((m) => m.type === 'conversation'), 'the empty state');
    view.send({ type: 'sendMessage', text, attachActiveFile: false, attachSelection: false });
    await until(() => service.activeId !== undefined, 'a new conversation');
    const session = await service.session(service.activeId!);
    const headers = () => view.posted.flatMap((m) => (m.type === 'header' ? [m.header] : []));
    return { service, view, controller, session, warned, headers };
  } catch (err) {
    controller.dispose();
    throw err;
  }
}

/**
 * The workspace folder made a git repository of `file` (one commit), and the window's worktree
 * tasks pointed at a fresh folder outside it (under the extension's ignored test output, not /tmp,
 * which a sandbox replaces): that folder is returned. The caller removes both after.
 */
export function repositoryForTasks(prefix: string, file: string, text: string): string {
  const root = workspaceRoot();
  assert.ok(!existsSync(join(root, '.git')), 'the workspace folder is already a repository');
  const outside = join(
    vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath,
    'test-results',
    'outside',
  );
  mkdirSync(outside, { recursive: true });
  const data = mkdtempSync(join(outside, prefix));
  process.env.LOGBOOK_WORKTREES_DIR = data;
  writeFileSync(join(root, file), text);
  const id = ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com'];
  for (const args of [
    ['init', '--quiet', '--initial-branch=main'],
    ['add', '--all'],
    ['commit', '--quiet', '-m', 'first'],
  ])
    execFileSync('git', [...id, ...args], { cwd: root, encoding: 'utf8' });
  return data;
}
