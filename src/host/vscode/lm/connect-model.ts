// Logbook: Connect a Model: the endpoint, the model and the API key in three short steps, for a user
// leaving the demo. The URL and model go to Settings (logbook.model.*), the key to SecretStorage
// through Logbook: Set API Key, so it is never written to settings or logs.
import * as vscode from 'vscode';
import { isDemoEndpoint } from '../../node/demo-model/demo-endpoint';
import { editorSetting, writeSetting, writeSettingWhereSet } from '../settings/config';

export interface Connection {
  baseUrl: string;
  model: string;
  /** Empty: keep the key stored now (a local endpoint may need none). */
  apiKey: string;
}

const OPENAI = 'https://api.openai.com/v1';

/** Asks for what is not given; undefined when the user cancels a step. */
export async function connectModel(given?: Partial<Connection>): Promise<Connection | undefined> {
  const nowUrl = editorSetting<string>('model.baseURL') || OPENAI;
  const nowModel = editorSetting<string>('model.name');
  const fromDemo = isDemoEndpoint(nowUrl, nowModel);
  const baseUrl =
    given?.baseUrl ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Logbook: Connect a Model (1/3): endpoint'),
      prompt: vscode.l10n.t(
        'Base URL of an OpenAI-compatible API (OpenAI, a gateway, or a local server such as Ollama)',
      ),
      value: fromDemo ? OPENAI : nowUrl,
      ignoreFocusOut: true,
      validateInput: (v) =>
        isHttpUrl(v.trim()) ? undefined : vscode.l10n.t('An http:// or https:// URL, e.g. {0}', OPENAI),
    }));
  if (baseUrl === undefined || !isHttpUrl(baseUrl.trim())) return undefined;
  const model =
    given?.model ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Logbook: Connect a Model (2/3): model'),
      prompt: vscode.l10n.t('Model name as {0} knows it', hostOf(baseUrl)),
      value: fromDemo ? 'gpt-4o-mini' : nowModel,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A model name, e.g. {0}', 'gpt-4o-mini')),
    }));
  if (!model?.trim()) return undefined;
  const apiKey =
    given?.apiKey ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Logbook: Connect a Model (3/3): API key'),
      prompt: vscode.l10n.t(
        'Stored in VS Code secret storage, never in settings or logs. Leave empty to keep the key stored now (a local endpoint may need none).',
      ),
      password: true,
      ignoreFocusOut: true,
    }));
  if (apiKey === undefined) return undefined;
  const connection = { baseUrl: baseUrl.trim(), model: model.trim(), apiKey: apiKey.trim() };
  await writeSetting('model.provider', 'openai', 'user');
  await writeSettingWhereSet('model.baseURL', connection.baseUrl);
  await writeSettingWhereSet('model.name', connection.model);
  if (connection.apiKey) await vscode.commands.executeCommand('logbook.setApiKey', connection.apiKey);
  void vscode.window.showInformationMessage(
    vscode.l10n.t('Logbook: the next step uses {0} at {1}.', connection.model, hostOf(connection.baseUrl)),
  );
  return connection;
}

function isHttpUrl(v: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
