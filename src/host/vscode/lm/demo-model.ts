// Logbook: Try the Demo Model: the demo model (the one `npm start` and `logbook run --demo` use)
// served on 127.0.0.1 by this extension host, for this window only: nothing is written to the
// settings. It follows one script on a small sample project (adding subtract() to src/math.js);
// in another folder it shows the same steps and says what it could not do. It ends when a
// logbook.model setting changes, an API key is set, or the window closes.
import * as vscode from 'vscode';
import { DEMO_MODEL, isDemoEndpoint } from '../../node/demo-model/demo-endpoint';
import type { DemoServer } from '../../node/demo-model/demo-server';
import { DEMO_TASK } from '../../node/demo-model/demo-tasks';
import { settingAt, settingScopes } from '../settings/config';

let server: DemoServer | undefined;
let active = false;
/** An API key is set here: the demo `npm start` serves beside the window gives way to the real model. */
let startDemoLeft = false;

/**
 * The demo `npm start` runs beside this VS Code, named by LOGBOOK_DEMO_URL in its environment: the
 * window talks to it while no model is set (no endpoint or model name in the settings, no API key
 * given here), and nothing is written to the settings for it.
 */
function startDemoUrl(): string | undefined {
  const url = process.env['LOGBOOK_DEMO_URL']?.trim();
  if (startDemoLeft || !url || !isDemoEndpoint(url, DEMO_MODEL)) return undefined;
  // Set by someone, at any level: the defaults name OpenAI's endpoint, which is no choice of the user's.
  const set = (key: string) =>
    settingScopes().some((scope) => {
      const v = settingAt(key, scope);
      return typeof v === 'string' && v.trim() !== '';
    });
  return set('model.baseURL') || set('model.name') ? undefined : url;
}

/** The demo's endpoint while this window talks to it. */
export function activeDemo(): { baseUrl: string; model: string } | undefined {
  if (active && server) return { baseUrl: server.baseUrl, model: DEMO_MODEL };
  const url = startDemoUrl();
  return url ? { baseUrl: url, model: DEMO_MODEL } : undefined;
}

/** Ends the demo of Try the Demo Model; with `apiKey` (a key was set), the npm start one too. */
/** The API key was removed: with no model set either, the npm start demo answers again. */
export function apiKeyRemoved(): void {
  startDemoLeft = false;
}

export function endDemo(opts: { apiKey?: boolean } = {}): void {
  active = false;
  if (opts.apiKey) startDemoLeft = true;
}

export function registerDemoModel(): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('logbook.tryDemo', async (taskArg?: unknown) => {
      // The demo's server and scripts load only now (a bundle of their own: scripts/lazy-bundles.mjs).
      server ??= await (await import('../../node/demo-model/demo-server')).startDemoServer('vscode');
      active = true;
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Logbook: this window talks to the demo model until you connect a real one (Logbook: Select Model or Set API Key).',
        ),
      );
      const task = typeof taskArg === 'string' ? taskArg : DEMO_TASK;
      return vscode.commands.executeCommand<string | undefined>('logbook.startTask', task);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('logbook.model')) endDemo();
    }),
    {
      dispose: () => {
        endDemo();
        void server?.close();
        server = undefined;
      },
    },
  ];
}
