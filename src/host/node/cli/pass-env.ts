// `--pass-env NAME` (repeatable) and LOGBOOK_PASS_ENV: Logbook's own variables (OPENAI_API_KEY,
// LOGBOOK_*) the user lets the agent's shell see. Without them the shell starts without those.
import { parseVariableNames } from '../../../core/secrets';
import { UsageError } from './exit-codes';

/** The option spec each command that runs the agent takes. */
export const PASS_ENV_OPTION = { 'pass-env': { type: 'string', multiple: true } } as const;

export function passEnvironment(
  command: string,
  flags: readonly string[] | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const names = [
    ...(flags ?? []).flatMap((f) => parseVariableNames(f)),
    ...parseVariableNames(env.LOGBOOK_PASS_ENV),
  ];
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new UsageError(
        `logbook ${command}: --pass-env and LOGBOOK_PASS_ENV take variable names, got "${name}".`,
      );
    }
  }
  return [...new Set(names)];
}
