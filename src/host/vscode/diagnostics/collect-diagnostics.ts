// The report of Logbook: Show Diagnostics, from this window's settings, secrets and storage: the
// same sections as `logbook doctor`. Reading it changes nothing: no key is created, no MCP server
// started, and the key and the signing key are never in it.
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { type DiagnosticRow, type DiagnosticsReport, section } from '../../../core/diagnostics/report';
import { identityFromPem } from '../../../core/signing';
import { endpointRows, probeEndpoint } from '../../node/diagnostics/endpoint-probe';
import { mcpRows, sandboxRows, signingRows, storageRows } from '../../node/diagnostics/rows';
import {
  checkpointUsage,
  conversationUsage,
  oldCheckpoints,
  type OldCheckpoints,
} from '../../node/diagnostics/storage-usage';
import type { ConversationService } from '../conversations/conversation-service';
import { readEditorModel, readLlmProvider, readLlmSettings } from '../settings/config';
import { findLmApi, isLmApi } from '../lm/lm-api';
import { createEditorSandbox } from '../sandbox/editor-sandbox';
import { SIGNING_KEY_SECRET } from '../signing/signing-key';
import { ignoredSettingsRows } from '../settings/workspace-settings-notice';

/** The report's words, from the extension's bundle. */
const l10n = vscode.l10n;

/** Checkpoints older than this are offered for clean-up. */
export const CLEANUP_AFTER_DAYS = 30;

/** How the fixes name the editor's settings and commands. */
const editorWords = () => ({
  setKey: vscode.l10n.t('run Logbook: Set API Key'),
  baseUrl: vscode.l10n.t('the setting logbook.model.baseURL'),
});

export interface CollectedDiagnostics {
  report: DiagnosticsReport;
  /** What a clean-up would release. */
  old: OldCheckpoints[];
}

export async function collectDiagnostics(
  context: vscode.ExtensionContext,
  service: ConversationService,
  olderThanDays = CLEANUP_AFTER_DAYS,
): Promise<CollectedDiagnostics> {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const listed = service.list();
  const titles = new Map(listed.map((c) => [c.id, c.title || c.id]));
  const conversations = conversationUsage(
    service.root,
    listed.map((c) => c.id),
  );
  const stores = checkpointUsage(checkpointsRoot(service));
  const old = oldCheckpoints(stores, { olderThanDays, exists: (id) => titles.has(id) });
  const [model, signing] = await Promise.all([modelRows(context), signingSection(context)]);
  const report: DiagnosticsReport = {
    sections: [
      section('sandbox', sandboxRows(createEditorSandbox(context).sandbox.report(folders, l10n), l10n), l10n),
      section('settings', ignoredSettingsRows(), l10n),
      section('model', model, l10n),
      section('mcp', mcpSection(service), l10n),
      section('signing', signing, l10n),
      section(
        'storage',
        storageRows({ conversations, stores, old, olderThanDays, name: (id) => titles.get(id) ?? id }, l10n),
        l10n,
      ),
    ],
  };
  return { report, old };
}

/** The window's checkpoint stores: beside its conversations (checkpoints.ts). */
export function checkpointsRoot(service: ConversationService): string {
  return join(dirname(service.root), 'checkpoints');
}

async function modelRows(context: vscode.ExtensionContext): Promise<DiagnosticRow[]> {
  if (readLlmProvider() === 'vscode') return editorModelRows();
  const settings = await readLlmSettings(context.secrets);
  const probe = await probeEndpoint({ ...settings, probeTimeoutMs: 5_000 });
  return [
    { label: l10n.t('Provider'), value: l10n.t('an OpenAI-compatible endpoint'), status: 'info' },
    ...endpointRows(settings, probe, editorWords(), l10n),
  ];
}

async function editorModelRows(): Promise<DiagnosticRow[]> {
  const provider: DiagnosticRow = {
    label: l10n.t('Provider'),
    value: l10n.t('a chat model of the editor'),
    status: 'info',
  };
  const label = l10n.t('Model');
  const api = findLmApi(vscode);
  if (!isLmApi(api)) {
    return [
      provider,
      {
        label,
        value: api.missing,
        status: 'error',
        fix: l10n.t('Set logbook.model.provider to "openai" and use an OpenAI-compatible endpoint.'),
      },
    ];
  }
  const wanted = readEditorModel();
  const all = await api.selectChatModels();
  const found = wanted ? all.find((m) => m.id === wanted || m.family === wanted) : all[0];
  if (found) return [provider, { label, value: `${found.name} (${found.id})`, status: 'ok' }];
  return [
    provider,
    {
      label,
      value: all.length
        ? l10n.t('no editor model "{0}"; offered: {1}', wanted ?? '', all.map((m) => m.id).join(', '))
        : l10n.t('no editor model is offered'),
      status: 'error',
      fix: all.length
        ? l10n.t('Pick one with Logbook: Select Model.')
        : l10n.t(
            'Install an extension that offers chat models (e.g. GitHub Copilot Chat), or use an endpoint.',
          ),
    },
  ];
}

function mcpSection(service: ConversationService): DiagnosticRow[] {
  if (!vscode.workspace.isTrusted) {
    return [
      { label: l10n.t('Servers'), value: l10n.t('none start in an untrusted workspace'), status: 'info' },
    ];
  }
  return mcpRows(service.mcp.status(), l10n);
}

async function signingSection(context: vscode.ExtensionContext): Promise<DiagnosticRow[]> {
  const where = l10n.t('VS Code secret storage');
  const pem = await context.secrets.get(SIGNING_KEY_SECRET);
  if (!pem) return signingRows(null, where, undefined, l10n);
  try {
    return signingRows(
      identityFromPem(pem, l10n.t('The signing key in VS Code secret storage')).did,
      where,
      undefined,
      l10n,
    );
  } catch (err) {
    return signingRows(null, where, (err as Error).message, l10n);
  }
}
