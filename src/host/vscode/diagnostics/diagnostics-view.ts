// Logbook: Show Diagnostics: a view in the Logbook sidebar with the report (collect-diagnostics.ts),
// shown once the command runs, and Logbook: Clean Up Old Checkpoints, which names exactly what it
// deletes and asks first.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { diagnosticsText, type DiagnosticsReport, formatSize } from '../../../core/diagnostics/report';
import { cleanUpCheckpoints, describeCleanup } from '../../node/diagnostics/storage-usage';
import type { ConversationService } from '../conversations/conversation-service';
import { CLEANUP_AFTER_DAYS, collectDiagnostics, type CollectedDiagnostics } from './collect-diagnostics';
import { diagnosticsHtml, isDiagnosticsRequest } from './diagnostics-html';

export const DIAGNOSTICS_VIEW = 'logbook.diagnostics';
/** The view is contributed only once this is set: until then it takes no room in the sidebar. */
const SHOWN_CONTEXT = 'logbook.diagnosticsShown';

class DiagnosticsView implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private last: CollectedDiagnostics | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly service: ConversationService,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.context.extensionUri, 'dist')],
    };
    view.webview.onDidReceiveMessage((m: unknown) => {
      if (!isDiagnosticsRequest(m)) return;
      if (m.type === 'refresh') void this.refresh();
      else if (m.type === 'copy' && this.last)
        void vscode.env.clipboard.writeText(diagnosticsText(this.last.report, vscode.l10n));
      else if (m.type === 'cleanUp') void vscode.commands.executeCommand('logbook.cleanUpCheckpoints');
    });
    view.onDidDispose(() => (this.view = undefined));
    this.render();
    if (!this.last) void this.refresh();
  }

  async refresh(): Promise<CollectedDiagnostics> {
    this.last = undefined;
    this.render();
    const collected = await collectDiagnostics(this.context, this.service);
    this.last = collected;
    this.render();
    return collected;
  }

  private render(): void {
    if (!this.view) return;
    const webview = this.view.webview;
    webview.html = diagnosticsHtml({
      report: this.last?.report,
      oldCount: this.last?.old.length ?? 0,
      cspSource: webview.cspSource,
      codiconCss: webview
        .asWebviewUri(vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'codicon.css'))
        .toString(),
      nonce: randomBytes(16).toString('base64'),
      l10n: vscode.l10n,
      lang: vscode.env.language,
    });
  }
}

export function registerDiagnostics(
  context: vscode.ExtensionContext,
  service: ConversationService,
): vscode.Disposable[] {
  const view = new DiagnosticsView(context, service);
  return [
    vscode.window.registerWebviewViewProvider(DIAGNOSTICS_VIEW, view),
    vscode.commands.registerCommand('logbook.showDiagnostics', async (): Promise<DiagnosticsReport> => {
      await vscode.commands.executeCommand('setContext', SHOWN_CONTEXT, true);
      await vscode.commands.executeCommand(`${DIAGNOSTICS_VIEW}.focus`);
      return (await view.refresh()).report;
    }),
    vscode.commands.registerCommand('logbook.cleanUpCheckpoints', async (options?: unknown) => {
      const result = await cleanUp(context, service, options);
      void view.refresh();
      return result;
    }),
  ];
}

/**
 * Asks, naming every conversation whose checkpoints go, then releases them. `options` (for tests
 * and scripts): `{ confirmed: true }` skips the question, `olderThanDays` changes the age.
 */
async function cleanUp(
  context: vscode.ExtensionContext,
  service: ConversationService,
  options: unknown,
): Promise<{ released: number; freed: number } | undefined> {
  const o = (options && typeof options === 'object' ? options : {}) as {
    confirmed?: unknown;
    olderThanDays?: unknown;
  };
  const days =
    typeof o.olderThanDays === 'number' && Number.isInteger(o.olderThanDays) && o.olderThanDays >= 0
      ? o.olderThanDays
      : CLEANUP_AFTER_DAYS;
  const { old } = await collectDiagnostics(context, service, days);
  if (!old.length) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Logbook: no checkpoints older than {0} days, and none of deleted conversations.', days),
    );
    return { released: 0, freed: 0 };
  }
  if (o.confirmed !== true) {
    const titles = new Map(service.list().map((c) => [c.id, c.title ? `"${c.title}"` : c.id]));
    const lines = describeCleanup(
      old,
      (id) => titles.get(id) ?? vscode.l10n.t('the deleted conversation {0}', id),
      vscode.l10n,
    );
    const go = vscode.l10n.t('Delete Checkpoints');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Delete the checkpoints of {0} conversation(s)?', old.length),
      {
        modal: true,
        detail: vscode.l10n.t(
          'This deletes:\n{0}\n\nThe conversations stay; only restoring their files to those points is no longer possible.',
          lines.map((l) => `• ${l}`).join('\n'),
        ),
      },
      go,
    );
    if (choice !== go) return undefined;
  }
  const result = await cleanUpCheckpoints(old);
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Logbook: released the checkpoints of {0} conversation(s); {1} freed.',
      result.released,
      formatSize(result.freed),
    ),
  );
  return result;
}
