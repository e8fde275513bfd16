// The endpoint check of the commands that talk to a model. The settings themselves (endpoint, key,
// model, limits, prices, hints) come from the schema's layers (cli-settings.ts); the key is only
// ever passed to the client: never printed, never written to the conversation directory.
import type { LlmSettings } from '../../../core/llm';
import { LLM_VARIABLES } from '../../../core/llm/environment-names';
import { SETTINGS_BY_KEY } from '../../../core/settings';
import { UsageError } from './exit-codes';

export const DEFAULT_BASE_URL = SETTINGS_BY_KEY.get('model.baseURL')!.default as string;

/**
 * Fails at once, naming what is missing, where the client would otherwise send a request without a
 * key to the default endpoint and retry it until it gives up.
 */
export function assertEndpointUsable(
  command: string,
  settings: Pick<LlmSettings, 'apiKey' | 'baseUrl'>,
): void {
  if (settings.apiKey || settings.baseUrl !== DEFAULT_BASE_URL) return;
  const [key, keyFallback] = LLM_VARIABLES.apiKey;
  const [url, urlFallback] = LLM_VARIABLES.baseUrl;
  throw new UsageError(
    [
      `logbook ${command}: no model to talk to: ${key} (or ${keyFallback}) is not set, and without it ` +
        `the default endpoint ${DEFAULT_BASE_URL} refuses every request.`,
      `  OpenAI:        ${key}=sk-...`,
      `  another or a local OpenAI-compatible endpoint (no key needed), e.g. Ollama:`,
      `                 ${url}=http://localhost:11434/v1 ${LLM_VARIABLES.model[0]}=llama3.2  (or ${urlFallback})`,
      '  the demo model: logbook run --demo ... (or LOGBOOK_DEMO=1)',
    ].join('\n'),
  );
}
