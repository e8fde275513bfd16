// The environment the agent's shell starts with: the host's own, minus Logbook's secrets. A model
// that runs `env`, `set` or `cat /proc/self/environ` would otherwise read the API key and put it in
// the log, the chat and its next request. Pure, so every host (CLI, both VS Code terminals) uses it.

/** Variables that are Logbook's own: the endpoint's key and Logbook's configuration. */
export function isLogbookVariable(name: string): boolean {
  return name === 'OPENAI_API_KEY' || name.startsWith('LOGBOOK_');
}

export interface AgentEnvironmentOptions {
  /** Names the user chose to hand to the agent anyway (`logbook.terminal.passEnvironment`, `--pass-env`). */
  pass?: readonly string[];
  /** Secret values the host knows (the key from SecretStorage, say): a variable holding one is dropped too. */
  secretValues?: readonly string[];
}

export interface AgentEnvironment {
  /** What the shell gets. */
  env: Record<string, string>;
  /** The names left out, sorted (a VS Code terminal must be told to delete each). */
  removed: string[];
}

/** Secrets this short are ignored: matching them would drop or redact ordinary text. */
export const MIN_SECRET_LENGTH = 8;

export function agentEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  opts: AgentEnvironmentOptions = {},
): AgentEnvironment {
  const pass = new Set(opts.pass ?? []);
  const secrets = (opts.secretValues ?? []).filter((s) => s.length >= MIN_SECRET_LENGTH);
  const out: Record<string, string> = {};
  const removed: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const secret = isLogbookVariable(name) || secrets.some((s) => value.includes(s));
    if (secret && !pass.has(name)) removed.push(name);
    else out[name] = value;
  }
  return { env: out, removed: removed.sort() };
}

/** Parses a list of variable names given as `A,B` or `A B` (the CLI's LOGBOOK_PASS_ENV). */
export function parseVariableNames(text: string | undefined): string[] {
  return (text ?? '').split(/[\s,]+/).filter((n) => n !== '');
}
