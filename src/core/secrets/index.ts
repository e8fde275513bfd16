/** Keeping Logbook's own secrets away from the agent: its shell's environment and every event. */
export {
  agentEnvironment,
  type AgentEnvironment,
  type AgentEnvironmentOptions,
  isLogbookVariable,
  MIN_SECRET_LENGTH,
  parseVariableNames,
} from './agent-environment';
export { llmSecrets } from './llm-secrets';
export { isPlaceholderKey } from './placeholder-keys';
export { type NamedSecret, SecretRedactor, secretMarker } from './redact-secrets';
export { serverSecrets, type ServerEntryValues } from './server-secrets';
export { StreamRedactor, type StreamEvent } from './redact-stream';
export { SecretGuard } from './secret-guard';
export { redactUrlCredentials, URL_CREDENTIALS_MARKER, urlSecrets } from './url-secrets';
