// Logbook: Select Model: one list of the OpenAI-compatible endpoint's model and the editor's own
// models (Language Model API), and Connect a model (endpoint, model, API key). Picking one writes
// logbook.model.provider and logbook.model.name.
import * as vscode from 'vscode';
import {
  editorSetting,
  readEditorModel,
  readLlmProvider,
  type LlmProvider,
  writeSettingWhereSet,
} from '../settings/config';
import { isDemoEndpoint } from '../../node/demo-model/demo-endpoint';
import { findLmApi, isLmApi } from './lm-api';

interface ModelItem extends vscode.QuickPickItem {
  choice?: { provider: LlmProvider; model: string } | 'enter' | 'explain' | 'connect';
  why?: string;
}

export async function selectModel(): Promise<{ provider: LlmProvider; model: string } | undefined> {
  const provider = readLlmProvider();
  const endpointModel = editorSetting<string>('model.name');
  const editorModel = readEditorModel();
  const current = provider === 'vscode' ? editorModel : endpointModel;
  const baseUrl = editorSetting<string>('model.baseURL');
  const mark = (p: LlmProvider, m: string) => (p === provider && m === current ? '$(check) ' : '');
  const items: ModelItem[] = [
    { label: vscode.l10n.t('OpenAI-compatible endpoint'), kind: vscode.QuickPickItemKind.Separator },
    {
      label: `${mark('openai', endpointModel)}${endpointModel}`,
      description: isDemoEndpoint(baseUrl, endpointModel)
        ? vscode.l10n.t("Logbook's demo model, on this machine")
        : hostOf(baseUrl),
      choice: { provider: 'openai', model: endpointModel },
    },
    { label: vscode.l10n.t('$(edit) Another model of this endpoint…'), choice: 'enter' },
    {
      label: vscode.l10n.t('$(plug) Connect a model…'),
      description: vscode.l10n.t('endpoint URL, model and API key'),
      choice: 'connect',
    },
    { label: vscode.l10n.t('Editor models'), kind: vscode.QuickPickItemKind.Separator },
    ...(await editorModelItems(mark)),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Logbook: Select Model'),
    placeHolder: vscode.l10n.t(
      'Now: {0} ({1})',
      current || vscode.l10n.t('the first editor model'),
      provider === 'vscode' ? vscode.l10n.t('editor model') : hostOf(baseUrl),
    ),
    matchOnDescription: true,
  });
  if (!picked?.choice) return undefined;
  if (picked.choice === 'explain') {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Logbook: {0}', picked.why ?? vscode.l10n.t('no editor models')),
    );
    return undefined;
  }
  if (picked.choice === 'connect') {
    const c = await vscode.commands.executeCommand<{ model: string } | undefined>('logbook.connectModel');
    return c ? { provider: 'openai', model: c.model } : undefined;
  }
  let choice = picked.choice;
  if (choice === 'enter') {
    const model = await vscode.window.showInputBox({
      title: vscode.l10n.t('Logbook: Select Model'),
      prompt: vscode.l10n.t('Model name as {0} knows it', hostOf(baseUrl)),
      value: endpointModel,
      ignoreFocusOut: true,
    });
    if (!model?.trim()) return undefined;
    choice = { provider: 'openai', model: model.trim() };
  }
  await writeSettingWhereSet('model.provider', choice.provider);
  await writeSettingWhereSet(choice.provider === 'vscode' ? 'model.editorModel' : 'model.name', choice.model);
  return choice;
}

async function editorModelItems(mark: (p: LlmProvider, m: string) => string): Promise<ModelItem[]> {
  const api = findLmApi(vscode);
  if (!isLmApi(api)) {
    return [
      {
        label: vscode.l10n.t('$(info) Not available in this VS Code'),
        detail: api.missing,
        choice: 'explain',
        why: `${api.missing}.`,
      },
    ];
  }
  const models = await api.selectChatModels();
  if (models.length === 0) {
    const why = vscode.l10n.t('No extension offers chat models here (GitHub Copilot Chat, for one, does).');
    return [
      { label: vscode.l10n.t('$(info) No editor models installed'), detail: why, choice: 'explain', why },
    ];
  }
  return models.map((m) => ({
    label: `${mark('vscode', m.id)}${m.name}`,
    description: `${m.vendor} · ${m.id}`,
    detail:
      m.maxInputTokens > 0
        ? vscode.l10n.t('{0} tokens of context', m.maxInputTokens.toLocaleString('en-US'))
        : undefined,
    choice: { provider: 'vscode' as const, model: m.id },
  }));
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
