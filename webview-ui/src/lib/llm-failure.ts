// Words for a model call that failed: the notice while the client retries, and the card once it gave
// up, with the setting that fixes it. The core's messages name the endpoint; these read them.
import type { LlmSettingId } from '../../../src/protocol/messages';
import { num, str } from './fields';
import { t } from './text';

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
  if (!url) return t('modelEndpoint');
  try {
    return new URL(url).host;
  } catch {
    return t('modelEndpoint');
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
  const cause = retryCause(str(v['kind']) ?? '', host, partial);
  return attempt !== undefined && attempts !== undefined
    ? t('retryingInCount', cause, seconds, attempt, attempts)
    : t('retryingIn', cause, seconds);
}

function retryCause(kind: string, host: string, partial: boolean): string {
  switch (kind) {
    case 'connection':
      return partial ? t('droppedMidReply', host) : t('couldNotReach', host);
    case 'timeout':
      return partial ? t('stoppedMidReply', host) : t('didNotAnswerInTime', host);
    case 'rate_limited':
      return t('limitingRequests', host);
    case 'server_error':
      return t('failedToAnswer', host);
    default:
      return t('callFailed', host);
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
  const checkServer = t('checkServer');
  switch (code) {
    case 'llm_connection':
      return help(t('couldNotReach', host), checkServer, 'logbook.model.baseURL');
    case 'llm_timeout':
      if (/time limit for one reply/.test(detail))
        return help(t('replyTooLong'), t('replyTooLongHint'), 'logbook.model.replyTimeoutSeconds');
      if (/size limit for one reply/.test(detail))
        return help(t('replyTooLarge'), t('replyTooLargeHint'), 'logbook.model.maxReplyBytes');
      return help(t('stoppedAnswering', host), checkServer, 'logbook.model.baseURL');
    case 'llm_auth':
      return help(t('refusedKey', host), t('refusedKeyHint'), 'logbook.model.baseURL', true);
    case 'llm_rate_limited':
      return help(t('limitingRequests', host), t('waitAndRetry'), 'logbook.model.baseURL');
    case 'llm_server_error':
      return help(t('failedToAnswer', host), t('retryOrOther'), 'logbook.model.baseURL');
    case 'llm_bad_request':
      if (/\b404\b|model_not_found|not found|does not exist/i.test(detail))
        return help(t('unknownModel', host), t('checkModelName'), 'logbook.model.name');
      return help(t('refusedRequest', host), t('checkEndpointAndModel'), 'logbook.model');
    case 'llm_empty_response':
      return help(t('emptyReply', host), t('retryOrOtherModel'), 'logbook.model.name');
    case 'llm_context_window_exceeded':
      return help(t('contextExceeded'), t('contextExceededHint'), 'logbook.model.name');
    default:
      return help(t('modelCallFailed'), t('modelIsSetIn'), 'logbook.model');
  }
}
