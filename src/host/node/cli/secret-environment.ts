// Logbook's secrets in the CLI's own environment. The CLI keeps the key in process.env (its model
// client reads it there) and runs in the process it was started as; nothing it starts inherits the
// key: the agent's shell and MCP servers get the agent's scrubbed environment (the sandbox's built
// from scratch), hooks the user's environment less the key.
//
// /proc/<pid>/environ keeps the environment a process was started with for its whole life, and
// every process of the same user can read it. A sandboxed command cannot: it runs in its own PID
// namespace with its own /proc, where no process of the host, this CLI included, exists
// (test/unit/hostile/cli-environ.test.ts reads every environ it can see). An unsandboxed one could,
// and so could it when the CLI started itself again without the key: the first process, which
// waited for the second, kept the key in its own environ (only an exec could replace that, which
// Node 20 lacks). That second Node start protected nothing, and cost every run one.
import { LLM_VARIABLES } from '../../../core/llm/environment-names';
import { urlSecrets } from '../../../core/secrets/url-secrets';

type Env = Record<string, string | undefined>;

/** The variables of `env` holding a Logbook secret: the key, and the base URL when it carries credentials. */
export function secretVariables(env: Readonly<Env>): string[] {
  const names: string[] = LLM_VARIABLES.apiKey.filter((name) => env[name]);
  for (const name of LLM_VARIABLES.baseUrl) {
    const url = env[name];
    if (url && urlSecrets(url, '').length > 0) names.push(name);
  }
  return names;
}

/**
 * Commands that start no agent shell, MCP server or model call, and read no secret: their secret
 * variables are deleted from process.env, so nothing they start could inherit them.
 */
const NEEDS_NO_SECRET = new Set(['show', 'verify', '--version', '-v', '--help', '-h', 'help']);

/** For a command in NEEDS_NO_SECRET: drops its secret variables from `env` and says true. */
export function dropSecretsFor(command: string | undefined, env: Env = process.env): boolean {
  if (command === undefined || !NEEDS_NO_SECRET.has(command)) return false;
  for (const name of secretVariables(env)) delete env[name];
  return true;
}
