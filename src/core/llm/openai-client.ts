/**
 * LlmClient for any OpenAI-compatible Chat Completions endpoint, on the `openai` package.
 * Always streams (deltas go to `onDelta`, never to the log), bounds each attempt in time and size,
 * retries by its own policy (a stream dropped mid-reply too: its deltas are discarded first), and
 * reports every failure as an LlmError whose message never contains the API key.
 */
import type OpenAI from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import { classifyError, type ClassifiedError, duration, type SdkErrors } from './errors';
import { DEFAULT_PRICES, findPrice, replyCost, type PriceTable } from './pricing';
import {
  backoffDelayMs,
  type BackoffPolicy,
  DEFAULT_BACKOFF,
  realSleep,
  retryAfterMs,
  type Sleep,
} from './retry';
import {
  AttemptWatch,
  maxLineBytesFor,
  type ReplyLimits,
  SseLineTooLong,
  type StopReason,
  withLineCap,
} from './reply-limits';
import {
  DEFAULT_MAX_REPLY_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_REPLY_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  type LlmSettings,
  type ResolvedLlmSettings,
  resolveLlmSettings,
} from './settings';
import { endpointFamily, type EndpointFamily, withRequestHints } from './request-hints';
import { StreamAssembler } from './stream-assembler';
import { llmSecrets } from '../secrets/llm-secrets';
import {
  type LlmCallOptions,
  type LlmClient,
  type LlmDelta,
  isLlmError,
  LlmError,
  type LlmRequest,
  type LlmResponse,
} from './types';

/** Seams for tests and hosts; production uses the defaults. */
export interface OpenAiLlmClientDeps {
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
  backoff?: Partial<BackoffPolicy>;
  /** Replaces global fetch (e.g. a proxy-aware one from the host). */
  fetch?: typeof fetch;
}

/** Sent when no key is configured: local servers ignore it, and the SDK refuses an empty one. */
const PLACEHOLDER_API_KEY = 'no-key';
/** Larger than any timeoutMs we arm ourselves, so the SDK's own timer never fires first. */
const SDK_TIMEOUT_MS = 2_147_483_647;

export class OpenAiLlmClient implements LlmClient {
  readonly model: string;
  private readonly settings: ResolvedLlmSettings;
  private readonly sdkOptions: ConstructorParameters<typeof OpenAI>[0];
  /** The SDK's client and error classes, loaded on the first call (openai-sdk.ts says why). */
  private sdk: Promise<{ client: OpenAI; errors: SdkErrors }> | undefined;
  private sdkErrors: SdkErrors | undefined;
  private readonly prices: PriceTable;
  private readonly secrets: string[];
  private readonly endpoint: string;
  private readonly family: EndpointFamily;
  private readonly limits: ReplyLimits;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly backoff: BackoffPolicy;

  constructor(settings: LlmSettings, deps: OpenAiLlmClientDeps = {}) {
    this.settings = resolveLlmSettings(settings);
    this.model = this.settings.model;
    this.prices = { ...DEFAULT_PRICES, ...(this.settings.prices ?? {}) };
    this.sleep = deps.sleep ?? realSleep;
    this.random = deps.random ?? Math.random;
    this.now = deps.now ?? Date.now;
    this.backoff = { ...DEFAULT_BACKOFF, ...deps.backoff };
    const extraHeaders = this.settings.extraHeaders ?? {};
    // The key, secret header values and the base URL's credentials (the HTTP stack quotes the URL).
    this.secrets = llmSecrets(this.settings).map((s) => s.value);
    this.endpoint = publicEndpoint(this.settings.baseUrl);
    this.family = endpointFamily(this.settings.baseUrl);
    this.limits = {
      noProgressMs: this.settings.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      replyMs: this.settings.replyTimeoutMs ?? DEFAULT_REPLY_TIMEOUT_MS,
      maxBytes: this.settings.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES,
    };
    this.sdkOptions = {
      baseURL: this.settings.baseUrl,
      apiKey: this.settings.apiKey || PLACEHOLDER_API_KEY,
      // Explicit nulls: the SDK would otherwise read OPENAI_ORG_ID/OPENAI_PROJECT_ID from the env.
      organization: null,
      project: null,
      maxRetries: 0,
      timeout: SDK_TIMEOUT_MS,
      defaultHeaders: defaultHeaders(this.settings.apiKey, extraHeaders),
      fetch: withLineCap(deps.fetch ?? globalThis.fetch, maxLineBytesFor(this.limits.maxBytes)),
    };
  }

  private loadSdk(): Promise<{ client: OpenAI; errors: SdkErrors }> {
    this.sdk ??= import('./openai-sdk').then((sdk) => {
      this.sdkErrors = sdk;
      return { client: new sdk.OpenAI(this.sdkOptions), errors: sdk };
    });
    return this.sdk;
  }

  async complete(req: LlmRequest, opts: LlmCallOptions = {}): Promise<LlmResponse> {
    const started = this.now();
    const maxRetries = this.settings.maxRetries ?? DEFAULT_MAX_RETRIES;
    for (let attempt = 0; ; attempt++) {
      const assembler = new StreamAssembler(opts.onDelta);
      let failure: ClassifiedError;
      try {
        await this.streamOnce(req, assembler, opts.signal);
        return this.toResponse(assembler, started);
      } catch (err) {
        failure = isLlmError(err) ? { error: err, retryable: false } : this.classify(err, opts.signal);
      }
      // A failed attempt's partial reply is never used: whoever showed it must drop it, retry or not.
      const discarded = assembler.deliveredAnything;
      if (discarded) publishDiscard(opts.onDelta);
      if (!failure.retryable) throw failure.error;
      if (attempt >= maxRetries) throw this.gaveUp(failure.error, attempt + 1);
      const asked = retryAfterMs(failure.headers, this.now());
      if (asked !== undefined && asked > this.backoff.maxRetryAfterMs) {
        throw this.withMessage(
          failure.error,
          `${failure.error.message} The server asked to retry after ${Math.ceil(asked / 1000)} s, longer than the ${this.backoff.maxRetryAfterMs / 1000} s Logbook waits.`,
        );
      }
      const wait = asked ?? backoffDelayMs(attempt, this.backoff, this.random);
      try {
        await opts.onRetry?.({
          error: failure.error,
          endpoint: this.endpoint,
          attempt: attempt + 2,
          attempts: maxRetries + 1,
          delayMs: wait,
          discardedPartialReply: discarded,
        });
        await this.sleep(wait, opts.signal);
      } catch (err) {
        throw this.classify(err, opts.signal).error;
      }
    }
  }

  private async streamOnce(req: LlmRequest, assembler: StreamAssembler, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new LlmError('aborted', `The request to ${this.endpoint} was cancelled.`);
    const watch = new AttemptWatch(this.limits, signal);
    try {
      const { client } = await this.loadSdk();
      const stream = await client.chat.completions.create(this.body(req), {
        signal: watch.signal,
        maxRetries: 0,
      });
      watch.progress();
      for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
        if (assembler.push(chunk)) watch.progress();
        watch.checkSize(assembler.size);
        if (watch.signal.aborted) break;
      }
      // The SDK ends the iteration quietly when its signal fires: tell why.
      if (watch.signal.aborted) throw new StreamInterrupted(watch.stopped);
    } catch (err) {
      if (err instanceof StreamInterrupted) throw this.stoppedError(err) ?? err;
      if (err instanceof SseLineTooLong) throw this.tooLarge(err.maxBytes);
      if (!watch.signal.aborted) throw err;
      const interrupted = new StreamInterrupted(watch.stopped, err);
      throw this.stoppedError(interrupted) ?? interrupted;
    } finally {
      watch.dispose();
    }
  }

  /**
   * A reply stopped at the time or size limit fails for good: the same request would likely run
   * away again, and each try costs the tokens it streamed. A stall is retried like a network error.
   */
  private stoppedError(interrupted: StreamInterrupted): LlmError | undefined {
    if (interrupted.reason === 'too_long') {
      return new LlmError(
        'timeout',
        `The reply from ${this.endpoint} was still streaming after ${duration(this.limits.replyMs)}, the time limit for one reply; it was stopped.`,
      );
    }
    if (interrupted.reason === 'too_large') return this.tooLarge(this.limits.maxBytes);
    return undefined;
  }

  private tooLarge(bytes: number): LlmError {
    return new LlmError(
      'timeout',
      `The reply from ${this.endpoint} passed ${sizeText(bytes)}, the size limit for one reply; it was stopped.`,
    );
  }

  private body(req: LlmRequest): ChatCompletionCreateParamsStreaming {
    const body: ChatCompletionCreateParamsStreaming = {
      model: this.model,
      // ChatMessage is a subset of the SDK's message params (plus reasoning_content, sent as is).
      messages: req.messages as ChatCompletionCreateParamsStreaming['messages'],
      stream: true,
      stream_options: { include_usage: true },
    };
    if (req.tools && req.tools.length > 0) body.tools = req.tools;
    const temperature = this.settings.temperature;
    if (temperature !== null && temperature !== undefined) body.temperature = temperature;
    const maxTokens = req.maxOutputTokens ?? this.settings.maxOutputTokens;
    if (maxTokens !== null && maxTokens !== undefined) {
      // OpenAI reasoning models reject max_tokens; many local servers only know max_tokens.
      if (usesMaxCompletionTokens(this.model)) body.max_completion_tokens = maxTokens;
      else body.max_tokens = maxTokens;
    }
    return withRequestHints(body, {
      family: this.family,
      model: this.model,
      caching: this.settings.promptCaching ?? 'auto',
      reasoningEffort: this.settings.reasoningEffort ?? null,
      cacheKey: req.cacheKey,
    });
  }

  private toResponse(assembler: StreamAssembler, started: number): LlmResponse {
    const reply = assembler.result();
    if (!reply.sawChoice) {
      throw new LlmError(
        'empty_response',
        `${this.endpoint} returned a response without choices for model "${this.model}".`,
      );
    }
    if (reply.content === '' && reply.toolCalls.length === 0) {
      const why = reply.reasoning !== '' ? 'only reasoning' : 'no content';
      throw new LlmError(
        'empty_response',
        `${this.endpoint} returned ${why} and no tool calls for model "${this.model}" (finish reason: ${reply.finishReason ?? 'none'}).`,
      );
    }
    const model = reply.model ?? this.model;
    const price = findPrice(model, this.prices) ?? findPrice(this.model, this.prices);
    const { cost, source } = replyCost(reply.usage, price);
    return {
      id: reply.id ?? `local-${started}-${Math.floor(this.random() * 1e9)}`,
      model,
      content: reply.content,
      reasoning: reply.reasoning === '' ? null : reply.reasoning,
      toolCalls: reply.toolCalls,
      finishReason: reply.finishReason,
      usage: reply.usage,
      cost,
      costSource: source,
      latencyMs: this.now() - started,
    };
  }

  private classify(err: unknown, signal: AbortSignal | undefined): ClassifiedError {
    const interrupted = err instanceof StreamInterrupted ? err : undefined;
    return classifyError(interrupted?.cause ?? err, {
      sdk: this.sdkErrors,
      aborted: signal?.aborted ?? false,
      timedOut: interrupted?.reason === 'stalled',
      timeoutMs: this.limits.noProgressMs,
      endpoint: this.endpoint,
      model: this.model,
      secrets: this.secrets,
    });
  }

  private gaveUp(error: LlmError, attempts: number): LlmError {
    return this.withMessage(error, `${error.message} Gave up after ${attempts} attempts.`);
  }

  private withMessage(error: LlmError, message: string): LlmError {
    return new LlmError(error.kind, message, error.status, { cause: error.cause });
  }
}

/** Our own signal fired during a call (a limit or the caller's abort); `cause` is what the SDK threw. */
class StreamInterrupted extends Error {
  constructor(
    readonly reason: StopReason | undefined,
    cause?: unknown,
  ) {
    super(reason ?? 'aborted', { cause });
  }
}

/** Tells a listener to drop the deltas of a failed attempt (a failing listener is ignored). */
function publishDiscard(onDelta: ((d: LlmDelta) => void) | undefined): void {
  try {
    onDelta?.({ type: 'discard' });
  } catch {
    // As in the assembler: a closed webview must not change the call's outcome.
  }
}

function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

/** The base URL without credentials or a trailing slash, for messages. */
function publicEndpoint(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.username = '';
  url.password = '';
  url.search = '';
  return url.toString().replace(/\/+$/, '');
}

function usesMaxCompletionTokens(model: string): boolean {
  return /^(o\d|gpt-5)/.test(model.replace(/^openai\//, ''));
}

/**
 * Extra headers win over the SDK's. With no key but an `api-key` header (Azure), the placeholder
 * bearer token is left out so the server does not try to validate it.
 */
function defaultHeaders(apiKey: string, extra: Record<string, string>): Record<string, string | null> {
  const headers: Record<string, string | null> = { ...extra };
  const hasApiKeyHeader = Object.keys(extra).some((name) => name.toLowerCase() === 'api-key');
  const hasAuthorization = Object.keys(extra).some((name) => name.toLowerCase() === 'authorization');
  if (!apiKey && hasApiKeyHeader && !hasAuthorization) headers.Authorization = null;
  return headers;
}
