// The secrets an LLM client's settings carry: its API key and secret-looking header values.
import type { LlmSettings } from '../llm/settings';
import type { NamedSecret } from './redact-secrets';

/** Header names that carry credentials (the LLM client keeps their values out of errors too). */
const SECRET_HEADER = /key|auth|token|secret|cookie/i;

export function llmSecrets(settings: Pick<LlmSettings, 'apiKey' | 'extraHeaders'>): NamedSecret[] {
  const out: NamedSecret[] = [];
  if (settings.apiKey) out.push({ name: 'OPENAI_API_KEY', value: settings.apiKey });
  for (const [header, value] of Object.entries(settings.extraHeaders ?? {})) {
    if (!SECRET_HEADER.test(header)) continue;
    out.push({ name: `${header} header`, value });
    const bearer = value.replace(/^Bearer\s+/i, '');
    if (bearer !== value) out.push({ name: `${header} header`, value: bearer });
  }
  return out;
}
