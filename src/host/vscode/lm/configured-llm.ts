// An LlmClient that follows the user's settings: the OpenAI-compatible client, or the editor's own
// models when logbook.model.provider is "vscode". Built from the current settings and key at each
// call (cached while they do not change). A delegated agent whose definition names a model gets a
// client of its own for it (`withModel`): the endpoint's model of that name, or the editor model of
// that id or family; one that does not exist fails the child's first request, in words.
import * as vscode from 'vscode';
import {
  OpenAiLlmClient,
  type LlmCallOptions,
  type LlmClient,
  LlmError,
  type LlmRequest,
  type LlmResponse,
} from '../../../core/llm';
import { readEditorModel, readLlmProvider, readLlmSettings } from '../settings/config';
import { activeDemo } from './demo-model';
import { KnownSecrets } from '../secrets/known-secrets';
import { EditorLmClient } from './editor-lm-client';
import { findLmApi, isLmApi } from './lm-api';

export class ConfiguredLlm implements LlmClient {
  private cached: { key: string; client: LlmClient } | undefined;
  model = '';
  /** Every key and credential header this client was configured with (redacted from events). */
  readonly knownSecrets: KnownSecrets;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    /** A model that wins over the settings' (a delegated agent's); the provider stays the settings'. */
    private readonly modelOverride?: string,
    knownSecrets?: KnownSecrets,
  ) {
    this.knownSecrets = knownSecrets ?? new KnownSecrets(secrets);
  }

  /** The same settings and key, on another model (sharing what it redacts). */
  withModel(model: string): ConfiguredLlm {
    return new ConfiguredLlm(this.secrets, model, this.knownSecrets);
  }

  async complete(req: LlmRequest, opts?: LlmCallOptions): Promise<LlmResponse> {
    return (await this.client()).complete(req, opts);
  }

  private async client(): Promise<LlmClient> {
    const demo = activeDemo();
    if (demo) {
      const model = this.modelOverride ?? demo.model;
      this.model = model;
      const key = `demo:${demo.baseUrl}:${model}`;
      if (this.cached?.key !== key)
        this.cached = {
          key,
          client: new OpenAiLlmClient({ baseUrl: demo.baseUrl, model, apiKey: '' }),
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
      const model = this.modelOverride ?? readEditorModel();
      this.model = model;
      const key = `vscode:${model}`;
      if (this.cached?.key !== key) this.cached = { key, client: new EditorLmClient(api, model) };
      return this.cached.client;
    }
    const configured = await readLlmSettings(this.secrets);
    const settings = this.modelOverride ? { ...configured, model: this.modelOverride } : configured;
    this.model = settings.model;
    // Known before the reply arrives, so the reply is redacted however the key got to the model.
    this.knownSecrets.note(settings);
    const key = JSON.stringify(settings);
    if (this.cached?.key !== key) this.cached = { key, client: new OpenAiLlmClient(settings) };
    return this.cached.client;
  }
}
