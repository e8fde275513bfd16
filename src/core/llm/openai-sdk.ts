// The `openai` package, which OpenAiLlmClient loads on its first call: its own bundle
// (scripts/lazy-bundles.mjs), so a window or command that calls no model never parses it. The
// error classes come from the same load as the client, for classifyError's `instanceof`.
export {
  default as OpenAI,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from 'openai';
