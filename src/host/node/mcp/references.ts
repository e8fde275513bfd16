// Values in `env` and `headers` may name a secret instead of holding it: `${secret:NAME}` (kept in
// VS Code's SecretStorage) or `${env:NAME}` (a variable of Logbook's own environment). They are
// filled in only when the server starts, and every value filled in is redacted from the log.

const REFERENCE = /\$\{(secret|env):([^}]+)\}/g;

export type ReferenceResolver = (kind: 'secret' | 'env', name: string) => Promise<string | undefined>;

export interface Expanded {
  values: Record<string, string>;
  /** The values the references stood for, to redact. */
  secrets: string[];
}

export async function expandReferences(
  values: Readonly<Record<string, string>> | undefined,
  resolve: ReferenceResolver,
): Promise<Expanded> {
  const out: Record<string, string> = {};
  const secrets: string[] = [];
  for (const [key, value] of Object.entries(values ?? {})) {
    let result = '';
    let last = 0;
    for (const m of value.matchAll(REFERENCE)) {
      const kind = m[1] as 'secret' | 'env';
      const name = m[2]!.trim();
      const found = await resolve(kind, name);
      if (found === undefined)
        throw new Error(
          kind === 'secret'
            ? `the secret "${name}" that ${key} refers to is not set (Logbook: Add MCP Server can store it)`
            : `the variable ${name} that ${key} refers to is not set`,
        );
      result += value.slice(last, m.index) + found;
      last = m.index + m[0].length;
      secrets.push(found);
    }
    out[key] = result + value.slice(last);
  }
  return { values: out, secrets };
}

/** The names of the `${secret:NAME}` references among `values`. */
export function secretNames(values: Readonly<Record<string, string>> | undefined): Set<string> {
  const names = new Set<string>();
  for (const value of Object.values(values ?? {}))
    for (const m of value.matchAll(REFERENCE)) if (m[1] === 'secret') names.add(m[2]!.trim());
  return names;
}

/** A resolver for plain Node (the CLI): `${env:NAME}` from the environment; no secret store. */
export function environmentResolver(env: Readonly<Record<string, string | undefined>>): ReferenceResolver {
  return async (kind, name) => {
    if (kind === 'env') return env[name];
    throw new Error(`\${secret:${name}} can only be used in VS Code; use \${env:NAME} with the CLI`);
  };
}
