// Logbook: Select Model: one list of the OpenAI-compatible endpoint's model and the editor's own
// models (Language Model API). Picking one writes logbook.llm.provider and logbook.llm.model.
import * as vscode from 'vscode';
import {
  editorSetting,
  readEditorModel,
  readLlmProvider,
  type LlmProvider,
  writeSettingWhereSet,
} from '../config';
import { findLmApi, isLmApi } from './lm-api';

interface ModelItem extends vscode.QuickPickItem {
  choice?: { provider: LlmProvider; model: string } | 'enter' | 'explain';
  why?: string;
}

export async function selectModel(): Promise<{ provider: LlmProvider; model: string } | undefined> {
  const provider = readLlmProvider();
  const endpointModel = editorSetting<string>('llm.model');
  const editorModel = readEditorModel();
  const current = provider === 'vscode' ? editorModel : endpointModel;
  const baseUrl = editorSetting<string>('llm.baseUrl');
  const mark = (p: LlmProvider, m: string) => (p === provider && m === current ? '$(check) ' : '');
  const items: ModelItem[] = [
    { label: `OpenAI-compatible endpoint`, kind: vscode.QuickPickItemKind.Separator },
    {
      label: `${mark('openai', endpointModel)}${endpointModel}`,
      description: hostOf(baseUrl),
      choice: { provider: 'openai', model: endpointModel },
    },
    { label: '$(edit) Another model of this endpoint…', choice: 'enter' },
    { label: 'Editor models', kind: vscode.QuickPickItemKind.Separator },
    ...(await editorModelItems(mark)),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Logbook: Select Model',
    placeHolder: `Now: ${current || 'the first editor model'} (${provider === 'vscode' ? 'editor model' : hostOf(baseUrl)})`,
    matchOnDescription: true,
  });
  if (!picked?.choice) return undefined;
  if (picked.choice === 'explain') {
    void vscode.window.showInformationMessage(`Logbook: ${picked.why ?? 'no editor models'}`);
    return undefined;
  }
  let choice = picked.choice;
  if (choice === 'enter') {
    const model = await vscode.window.showInputBox({
      title: 'Logbook: Select Model',
      prompt: `Model name as ${hostOf(baseUrl)} knows it`,
      value: endpointModel,
      ignoreFocusOut: true,
    });
    if (!model?.trim()) return undefined;
    choice = { provider: 'openai', model: model.trim() };
  }
  await writeSettingWhereSet('llm.provider', choice.provider);
  await writeSettingWhereSet(choice.provider === 'vscode' ? 'llm.editorModel' : 'llm.model', choice.model);
  return choice;
}

async function editorModelItems(mark: (p: LlmProvider, m: string) => string): Promise<ModelItem[]> {
  const api = findLmApi(vscode);
  if (!isLmApi(api)) {
    return [
      {
        label: '$(info) Not available in this VS Code',
        detail: api.missing,
        choice: 'explain',
        why: `${api.missing}.`,
      },
    ];
  }
  const models = await api.selectChatModels();
  if (models.length === 0) {
    const why = 'No extension offers chat models here (GitHub Copilot Chat, for one, does).';
    return [{ label: '$(info) No editor models installed', detail: why, choice: 'explain', why }];
  }
  return models.map((m) => ({
    label: `${mark('vscode', m.id)}${m.name}`,
    description: `${m.vendor} · ${m.id}`,
    detail:
      m.maxInputTokens > 0 ? `${m.maxInputTokens.toLocaleString('en-US')} tokens of context` : undefined,
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
