// The secrets an LLM client's settings carry: its API key, secret-looking header values and the
// credentials written into its base URL.
import type { LlmSettings } from '../llm/settings';
import type { NamedSecret } from './redact-secrets';
import { isPlaceholderKey } from './placeholder-keys';
import { urlSecrets } from './url-secrets';

/** Header names that carry credentials (the LLM client keeps their values out of errors too). */
const SECRET_HEADER = /key|auth|token|secret|cookie/i;

export function isCredentialHeader(name: string): boolean {
  return SECRET_HEADER.test(name);
}

export function llmSecrets(
  settings: Pick<LlmSettings, 'apiKey' | 'extraHeaders'> & { baseUrl?: string },
): NamedSecret[] {
  const out: NamedSecret[] = [];
  if (settings.apiKey && !isPlaceholderKey(settings.apiKey))
    out.push({ name: 'API key', value: settings.apiKey });
  for (const [header, value] of Object.entries(settings.extraHeaders ?? {})) {
    if (!isCredentialHeader(header)) continue;
    out.push({ name: `${header} header`, value });
    const bearer = value.replace(/^Bearer\s+/i, '');
    if (bearer !== value) out.push({ name: `${header} header`, value: bearer });
  }
  if (settings.baseUrl) out.push(...urlSecrets(settings.baseUrl, 'base URL'));
  return out;
}
