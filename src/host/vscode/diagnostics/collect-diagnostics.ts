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
import type { ConversationService } from '../conversation-service';
import { readEditorModel, readLlmProvider, readLlmSettings } from '../config';
import { findLmApi, isLmApi } from '../lm/lm-api';
import { createEditorSandbox } from '../sandbox/editor-sandbox';
import { SIGNING_KEY_SECRET } from '../signing-key';

/** Checkpoints older than this are offered for clean-up. */
export const CLEANUP_AFTER_DAYS = 30;

const EDITOR_WORDS = { setKey: 'run Logbook: Set API Key', baseUrl: 'the setting logbook.model.baseURL' };

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
      section('sandbox', sandboxRows(createEditorSandbox(context).sandbox.report(folders))),
      section('model', model),
      section('mcp', mcpSection(service)),
      section('signing', signing),
      section(
        'storage',
        storageRows({ conversations, stores, old, olderThanDays, name: (id) => titles.get(id) ?? id }),
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
    { label: 'Provider', value: 'an OpenAI-compatible endpoint', status: 'info' },
    ...endpointRows(settings, probe, EDITOR_WORDS),
  ];
}

async function editorModelRows(): Promise<DiagnosticRow[]> {
  const provider: DiagnosticRow = { label: 'Provider', value: 'a chat model of the editor', status: 'info' };
  const api = findLmApi(vscode);
  if (!isLmApi(api)) {
    return [
      provider,
      {
        label: 'Model',
        value: api.missing,
        status: 'error',
        fix: 'Set logbook.model.provider to "openai" and use an OpenAI-compatible endpoint.',
      },
    ];
  }
  const wanted = readEditorModel();
  const all = await api.selectChatModels();
  const found = wanted ? all.find((m) => m.id === wanted || m.family === wanted) : all[0];
  if (found) return [provider, { label: 'Model', value: `${found.name} (${found.id})`, status: 'ok' }];
  return [
    provider,
    {
      label: 'Model',
      value: all.length
        ? `no editor model "${wanted}"; offered: ${all.map((m) => m.id).join(', ')}`
        : 'no editor model is offered',
      status: 'error',
      fix: all.length
        ? 'Pick one with Logbook: Select Model.'
        : 'Install an extension that offers chat models (e.g. GitHub Copilot Chat), or use an endpoint.',
    },
  ];
}

function mcpSection(service: ConversationService): DiagnosticRow[] {
  if (!vscode.workspace.isTrusted) {
    return [{ label: 'Servers', value: 'none start in an untrusted workspace', status: 'info' }];
  }
  return mcpRows(service.mcp.status());
}

async function signingSection(context: vscode.ExtensionContext): Promise<DiagnosticRow[]> {
  const where = 'VS Code secret storage';
  const pem = await context.secrets.get(SIGNING_KEY_SECRET);
  if (!pem) return signingRows(null, where);
  try {
    return signingRows(identityFromPem(pem, 'The signing key in VS Code secret storage').did, where);
  } catch (err) {
    return signingRows(null, where, (err as Error).message);
  }
}
