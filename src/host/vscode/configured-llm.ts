// An LlmClient that follows the user's settings: it builds the OpenAI-compatible client from the
// current settings and key at each call (cached while they do not change).
import type * as vscode from 'vscode';
import {
  OpenAiLlmClient,
  type LlmCallOptions,
  type LlmClient,
  type LlmRequest,
  type LlmResponse,
} from '../../core/llm';
import { readLlmSettings } from './config';
import { KnownSecrets } from './known-secrets';

export class ConfiguredLlm implements LlmClient {
  private cached: { key: string; client: OpenAiLlmClient } | undefined;
  model = '';
  /** Every key and credential header this client was configured with (redacted from events). */
  readonly knownSecrets: KnownSecrets;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.knownSecrets = new KnownSecrets(secrets);
  }

  async complete(req: LlmRequest, opts?: LlmCallOptions): Promise<LlmResponse> {
    const settings = await readLlmSettings(this.secrets);
    // Known before the reply arrives, so the reply is redacted however the key got to the model.
    this.knownSecrets.note(settings);
    const key = JSON.stringify(settings);
    if (this.cached?.key !== key) this.cached = { key, client: new OpenAiLlmClient(settings) };
    this.model = settings.model;
    return this.cached.client.complete(req, opts);
  }
}
