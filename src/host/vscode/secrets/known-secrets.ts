// The secrets this window knows: the API key from SecretStorage or the environment and the
// credential headers and base URL credentials of the LLM settings. Conversations redact them from every event, and the
// agent's terminals start without any variable holding one. Kept as a list that only grows (a key
// replaced in Settings may still sit in a file the agent reads) and only changes when a new one
// is seen, so the core can cache its redactor.
import type * as vscode from 'vscode';
import type { LlmSettings } from '../../../core/llm';
import { llmSecrets, type NamedSecret } from '../../../core/secrets';
import { readLlmSettings } from '../settings/config';
import { LLM_VARIABLES } from '../../../core/llm/environment-names';

export class KnownSecrets implements vscode.Disposable {
  private list: readonly NamedSecret[] = [];
  private readonly subscription: vscode.Disposable;
  private refreshing: Promise<void> | undefined;

  constructor(private readonly storage: vscode.SecretStorage) {
    this.subscription = storage.onDidChange(() => void this.refresh());
    void this.refresh();
  }

  /** The same array until a new secret is seen. */
  get current(): readonly NamedSecret[] {
    return this.list;
  }

  /** Notes the secrets of the settings the LLM client is about to use. */
  note(settings: Pick<LlmSettings, 'apiKey' | 'extraHeaders' | 'baseUrl'>): void {
    const envKeys = LLM_VARIABLES.apiKey.flatMap((name) => {
      const value = process.env[name];
      return value ? [{ name, value }] : [];
    });
    const seen = [...llmSecrets(settings), ...envKeys];
    const fresh = seen.filter((s) => !this.list.some((known) => known.value === s.value));
    if (fresh.length) this.list = [...this.list, ...fresh];
  }

  /** Reads SecretStorage and the settings again (a terminal about to start wants them all). */
  refresh(): Promise<void> {
    this.refreshing ??= readLlmSettings(this.storage)
      .then((settings) => this.note(settings))
      .catch(() => undefined)
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
