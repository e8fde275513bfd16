// An LlmClient on a chat model of the editor (GitHub Copilot and other extensions that contribute
// models to VS Code's Language Model API). Same contract as the OpenAI-compatible client: deltas
// while the reply streams, one LlmResponse with tool calls, every failure an LlmError.
import * as vscode from 'vscode';
import {
  type LlmCallOptions,
  type LlmClient,
  isLlmError,
  LlmError,
  type LlmRequest,
  type LlmResponse,
  type LlmToolCall,
} from '../../../core/llm';
import type { LmApi, LmChatModel, LmTextPart, LmToolCallPart } from './lm-api';
import { promptText, toLmMessages } from './to-lm-messages';

export const EDITOR_PROVIDER_NAME = 'editor models (VS Code Language Model API)';

export class EditorLmClient implements LlmClient {
  constructor(
    private readonly api: LmApi,
    /** The model's id, or a family such as "gpt-4o" (its first model); empty: the first model offered. */
    readonly model: string,
  ) {}

  async complete(req: LlmRequest, opts: LlmCallOptions = {}): Promise<LlmResponse> {
    const started = Date.now();
    const model = await this.pick();
    const cancel = new vscode.CancellationTokenSource();
    const onAbort = () => cancel.cancel();
    opts.signal?.addEventListener('abort', onAbort);
    try {
      if (opts.signal?.aborted) throw new LlmError('aborted', `The request to ${model.name} was cancelled.`);
      const response = await model.sendRequest(
        toLmMessages(this.api, req.messages),
        {
          tools: req.tools?.map((t) => ({
            name: t.function.name,
            description: t.function.description,
            inputSchema: t.function.parameters,
          })),
          justification: vscode.l10n.t('Logbook runs the agent task you started with this model.'),
        },
        cancel.token,
      );
      let content = '';
      const toolCalls: LlmToolCall[] = [];
      for await (const part of response.stream) {
        if (isTextPart(part)) {
          content += part.value;
          opts.onDelta?.({ type: 'text', text: part.value });
        } else if (isToolCallPart(part)) {
          const call = { id: part.callId, name: part.name, arguments: JSON.stringify(part.input ?? {}) };
          opts.onDelta?.({
            type: 'tool_call',
            index: toolCalls.length,
            id: call.id,
            name: call.name,
            argumentsDelta: call.arguments,
          });
          toolCalls.push(call);
        }
        if (opts.signal?.aborted)
          throw new LlmError('aborted', `The request to ${model.name} was cancelled.`);
      }
      if (content === '' && toolCalls.length === 0) {
        throw new LlmError(
          'empty_response',
          `The editor model ${model.name} returned no text and no tool calls.`,
        );
      }
      // The API reports no usage: the model's own tokenizer counts both sides instead.
      const [promptTokens, completionTokens] = await Promise.all([
        model.countTokens(promptText(req.messages)),
        model.countTokens([content, ...toolCalls.map((c) => `${c.name} ${c.arguments}`)].join('\n')),
      ]);
      return {
        id: `vscode-lm-${started}-${Math.floor(Math.random() * 1e9)}`,
        model: model.id,
        content,
        reasoning: null,
        toolCalls,
        finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
        usage: { promptTokens, completionTokens, cachedTokens: 0, reasoningTokens: 0 },
        // Editor models are billed by their own subscription, if at all: no price is known here.
        cost: 0,
        costSource: 'unknown',
        latencyMs: Date.now() - started,
      };
    } catch (err) {
      throw this.llmError(err, model, opts.signal);
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  }

  /** The configured model: by id first, then by family; with none configured, the first offered. */
  private async pick(): Promise<LmChatModel> {
    if (this.model === '') {
      const [first] = await this.api.selectChatModels();
      if (first) return first;
    }
    const byId = await this.api.selectChatModels({ id: this.model });
    if (byId[0]) return byId[0];
    const byFamily = await this.api.selectChatModels({ family: this.model });
    if (byFamily[0]) return byFamily[0];
    const all = await this.api.selectChatModels();
    const known = all.map((m) => m.id).join(', ');
    throw new LlmError(
      'bad_request',
      all.length > 0
        ? `No editor model "${this.model}" in VS Code. Available: ${known}. Pick one with Logbook: Select Model.`
        : `No editor models are available in VS Code (install one, e.g. GitHub Copilot Chat), or set logbook.model.provider to "openai".`,
    );
  }

  private llmError(err: unknown, model: LmChatModel, signal: AbortSignal | undefined): LlmError {
    if (isLlmError(err)) return err;
    if (signal?.aborted || err instanceof vscode.CancellationError) {
      return new LlmError('aborted', `The request to ${model.name} was cancelled.`);
    }
    const message = err instanceof Error ? err.message : String(err);
    const code = this.api.ErrorClass && err instanceof this.api.ErrorClass ? err.code : '';
    if (code === 'NoPermissions') {
      return new LlmError('auth', `VS Code did not let Logbook use ${model.name}: ${message}`, undefined, {
        cause: err,
      });
    }
    if (code === 'Blocked') {
      return new LlmError(
        'rate_limited',
        `${model.name} refused the request (quota or rate limit): ${message}`,
        undefined,
        { cause: err },
      );
    }
    if (code === 'NotFound') {
      return new LlmError('bad_request', `${model.name} is no longer available: ${message}`, undefined, {
        cause: err,
      });
    }
    return new LlmError('server_error', `${model.name} failed: ${message}`, undefined, { cause: err });
  }
}

// By shape, not `instanceof`: the parts a stream yields are not always instances of the classes the
// `vscode` module exports (VS Code 1.100 builds tool calls from an internal class of its own).
function isTextPart(part: unknown): part is LmTextPart {
  return typeof (part as LmTextPart | null)?.value === 'string';
}

function isToolCallPart(part: unknown): part is LmToolCallPart {
  const p = part as Partial<LmToolCallPart> | null;
  return typeof p?.callId === 'string' && typeof p.name === 'string';
}
