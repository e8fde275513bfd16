// An LlmClient that follows the user's settings: the OpenAI-compatible client, or the editor's own
// models when logbook.model.provider is "vscode". Built from the current settings and key at each
// call (cached while they do not change).
import * as vscode from 'vscode';
import {
  OpenAiLlmClient,
  type LlmCallOptions,
  type LlmClient,
  LlmError,
  type LlmRequest,
  type LlmResponse,
} from '../../core/llm';
import { readEditorModel, readLlmProvider, readLlmSettings } from './config';
import { activeDemo } from './demo-model';
import { KnownSecrets } from './known-secrets';
import { EditorLmClient } from './lm/editor-lm-client';
import { findLmApi, isLmApi } from './lm/lm-api';

export class ConfiguredLlm implements LlmClient {
  private cached: { key: string; client: LlmClient } | undefined;
  model = '';
  /** Every key and credential header this client was configured with (redacted from events). */
  readonly knownSecrets: KnownSecrets;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.knownSecrets = new KnownSecrets(secrets);
  }

  async complete(req: LlmRequest, opts?: LlmCallOptions): Promise<LlmResponse> {
    return (await this.client()).complete(req, opts);
  }

  private async client(): Promise<LlmClient> {
    const demo = activeDemo();
    if (demo) {
      this.model = demo.model;
      const key = `demo:${demo.baseUrl}`;
      if (this.cached?.key !== key)
        this.cached = {
          key,
          client: new OpenAiLlmClient({ baseUrl: demo.baseUrl, model: demo.model, apiKey: '' }),
        };
      return this.cached.client;
    }
    if (readLlmProvider() === 'vscode') {
      const api = findLmApi(vscode);
      if (!isLmApi(api)) {
        throw new LlmError(
          'bad_request',
          `logbook.model.provider is "vscode", but ${api.missing}. Set it to "openai" and use an OpenAI-compatible endpoint.`,
        );
      }
      const model = readEditorModel();
      this.model = model;
      const key = `vscode:${model}`;
      if (this.cached?.key !== key) this.cached = { key, client: new EditorLmClient(api, model) };
      return this.cached.client;
    }
    const settings = await readLlmSettings(this.secrets);
    this.model = settings.model;
    // Known before the reply arrives, so the reply is redacted however the key got to the model.
    this.knownSecrets.note(settings);
    const key = JSON.stringify(settings);
    if (this.cached?.key !== key) this.cached = { key, client: new OpenAiLlmClient(settings) };
    return this.cached.client;
  }
}
