// API keys that are not secrets: the fixed values local model servers document for clients that
// insist on sending one. Redacting them would rewrite ordinary text ("lm-studio" in a README, "none"
// in any output) in what the agent and the user read, and protect nothing.
const PLACEHOLDER_KEYS = new Set(
  [
    'lm-studio', // LM Studio
    'ollama', // Ollama's OpenAI-compatible endpoint
    'sk-no-key-required', // llama.cpp's server
    'empty', // vLLM
    'not-needed',
    'no-key',
    'none',
    'dummy',
    'placeholder',
  ].map((k) => k.toLowerCase()),
);

/** Whether `key` is one of the published stand-in keys of local servers (case-insensitive). */
export function isPlaceholderKey(key: string): boolean {
  return PLACEHOLDER_KEYS.has(key.trim().toLowerCase());
}
