// Words for a model call that failed: the notice while the client retries, and the card once it gave
// up, with the setting that fixes it. The core's messages name the endpoint; these read them.
import type { LlmSettingId } from '../../../src/protocol/messages';
import { num, str } from './fields';

export interface LlmFailureHelp {
  title: string;
  /** What to do, followed by the setting's id. */
  hint: string;
  setting: LlmSettingId;
  /** The key was refused: offer "Set API Key". */
  apiKey: boolean;
}

/** "127.0.0.1:11434" from a base URL (or the first URL in a message); a generic name otherwise. */
export function endpointHost(text: string | undefined): string {
  const url = /https?:\/\/[^\s"'()<>,]+/.exec(text ?? '')?.[0];
  if (!url) return 'the model endpoint';
  try {
    return new URL(url).host;
  } catch {
    return 'the model endpoint';
  }
}

/** The line shown for an `llm_retry` update: "Could not reach 127.0.0.1:11434, retrying in 4 s (2 of 5)". */
export function retryNoticeText(value: unknown): string {
  const v = (value ?? {}) as Record<string, unknown>;
  const host = endpointHost(str(v['endpoint']) ?? str(v['error']));
  const partial = v['discarded_partial_reply'] === true;
  const seconds = Math.max(1, Math.round((num(v['delay_ms']) ?? 0) / 1000));
  const attempt = num(v['attempt']);
  const attempts = num(v['attempts']);
  const count = attempt !== undefined && attempts !== undefined ? ` (${attempt} of ${attempts})` : '';
  return `${retryCause(str(v['kind']) ?? '', host, partial)}, retrying in ${seconds} s${count}`;
}

function retryCause(kind: string, host: string, partial: boolean): string {
  switch (kind) {
    case 'connection':
      return partial ? `The connection to ${host} dropped mid-reply` : `Could not reach ${host}`;
    case 'timeout':
      return partial ? `${host} stopped sending mid-reply` : `${host} did not answer in time`;
    case 'rate_limited':
      return `${host} is limiting requests`;
    case 'server_error':
      return `${host} failed to answer`;
    default:
      return `The call to ${host} failed`;
  }
}

/** True for the codes a failed model call ends a run with (`llm_` + the client's error kind). */
export function isLlmFailure(code: string): boolean {
  return code.startsWith('llm_');
}

export function llmFailureHelp(code: string, detail: string): LlmFailureHelp {
  const host = endpointHost(detail);
  const help = (title: string, hint: string, setting: LlmSettingId, apiKey = false) => ({
    title,
    hint,
    setting,
    apiKey,
  });
  const checkServer = 'Check that the server is running and its address is right:';
  switch (code) {
    case 'llm_connection':
      return help(`Could not reach ${host}`, checkServer, 'logbook.model.baseURL');
    case 'llm_timeout':
      if (/time limit for one reply/.test(detail))
        return help(
          'The reply took too long',
          'How long one reply may stream is set by',
          'logbook.model.replyTimeoutSeconds',
        );
      if (/size limit for one reply/.test(detail))
        return help('The reply was too large', 'The largest reply is set by', 'logbook.model.maxReplyBytes');
      return help(`${host} stopped answering`, checkServer, 'logbook.model.baseURL');
    case 'llm_auth':
      return help(
        `${host} refused the API key`,
        'Set a key with Logbook: Set API Key, or check the endpoint:',
        'logbook.model.baseURL',
        true,
      );
    case 'llm_rate_limited':
      return help(
        `${host} is limiting requests`,
        'Wait a moment and retry. The endpoint is',
        'logbook.model.baseURL',
      );
    case 'llm_server_error':
      return help(
        `${host} failed to answer`,
        'Retry in a moment, or use another endpoint:',
        'logbook.model.baseURL',
      );
    case 'llm_bad_request':
      if (/\b404\b|model_not_found|not found|does not exist/i.test(detail))
        return help(`${host} does not know the model`, 'Check the model name:', 'logbook.model.name');
      return help(`${host} refused the request`, 'Check the endpoint and model in', 'logbook.llm');
    case 'llm_empty_response':
      return help(`${host} sent an empty reply`, 'Retry, or try another model:', 'logbook.model.name');
    case 'llm_context_window_exceeded':
      return help(
        "The conversation no longer fits the model's context",
        'Start a new conversation, or choose a model with a larger context:',
        'logbook.model.name',
      );
    default:
      return help('The model call failed', 'The model is set in', 'logbook.llm');
  }
}
