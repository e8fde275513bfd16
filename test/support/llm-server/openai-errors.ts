// Error bodies in the shape the OpenAI API uses, so clients parse them exactly as they would in production:
//   {"error":{"message":"...","type":"...","param":null,"code":null}}
import { type Fault } from './scenario';

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: OpenAiErrorBody;
}

export function errorBody(
  message: string,
  type: string,
  param: string | null = null,
  code: string | null = null,
): OpenAiErrorBody {
  return { error: { message, type, param, code } };
}

export function invalidRequest(
  message: string,
  param: string | null = null,
  code: string | null = null,
): ErrorResponse {
  return { status: 400, headers: {}, body: errorBody(message, 'invalid_request_error', param, code) };
}

interface FaultDefaults {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

/** The error a fault turn answers with; wording and codes follow what the real API sends for each case. */
export function faultResponse(fault: Fault): ErrorResponse {
  const status = fault.status ?? 400;
  const defaults = defaultsFor(status, fault.code ?? null);
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
  return {
    status,
    headers,
    body: errorBody(
      fault.message ?? defaults.message,
      fault.type ?? defaults.type,
      fault.param === undefined ? defaults.param : fault.param,
      fault.code === undefined ? defaults.code : fault.code,
    ),
  };
}

function defaultsFor(status: number, code: string | null): FaultDefaults {
  if (code === 'context_length_exceeded') {
    return {
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. " +
        'Please reduce the length of the messages.',
      type: 'invalid_request_error',
      param: 'messages',
      code,
    };
  }
  switch (status) {
    case 401:
      return {
        message:
          'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      };
    case 429:
      return {
        message: 'Rate limit reached for requests (scripted fault). Please try again later.',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      };
    case 500:
      return {
        message: 'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
        param: null,
        code: null,
      };
    case 503:
      return {
        message: 'The engine is currently overloaded, please try again later.',
        type: 'server_error',
        param: null,
        code: null,
      };
    default:
      return {
        message: `Scripted fault: HTTP ${status}.`,
        type: status >= 500 ? 'server_error' : 'invalid_request_error',
        param: null,
        code,
      };
  }
}
