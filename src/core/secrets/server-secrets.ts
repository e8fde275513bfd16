// The secrets an outside tool server's entry carries. Anything in a server's `env` is there for the
// server alone and is often a token written in place (`GITHUB_TOKEN: "ghp_…"`), so every value is
// redacted, not only those filled in from a reference; of `headers`, those whose name says they
// carry a credential. Values shorter than MIN_SECRET_LENGTH ("1", "true") are skipped by the redactor.
import type { NamedSecret } from './named-secret';
import { isCredentialHeader } from './llm-secrets';

export interface ServerEntryValues {
  /** The server's environment as it starts (references filled in). */
  env?: Readonly<Record<string, string>>;
  /** Its HTTP headers as sent (references filled in). */
  headers?: Readonly<Record<string, string>>;
  /** What each `${secret:…}` / `${env:…}` reference stood for (part of a longer value, too). */
  referenced?: readonly string[];
}

export function serverSecrets(server: string, values: ServerEntryValues): NamedSecret[] {
  const out: NamedSecret[] = [];
  for (const [key, value] of Object.entries(values.env ?? {}))
    out.push({ name: `MCP ${server} ${key}`, value });
  for (const [header, value] of Object.entries(values.headers ?? {})) {
    if (!isCredentialHeader(header)) continue;
    out.push({ name: `MCP ${server} ${header} header`, value });
    const bearer = value.replace(/^Bearer\s+/i, '');
    if (bearer !== value) out.push({ name: `MCP ${server} ${header} header`, value: bearer });
  }
  for (const value of values.referenced ?? []) out.push({ name: `MCP ${server} secret`, value });
  return out;
}
