// Agent limits from the environment, for every command that runs the agent (a flag wins over it).
import { positiveInt } from './args';
import { UsageError } from './exit-codes';

export const MAX_TOOL_CALLS_ENV = 'LOGBOOK_MAX_TOOL_CALLS';

/** LOGBOOK_MAX_TOOL_CALLS as a positive integer; undefined when unset or blank. */
export function maxToolCallsFromEnv(
  command: string,
  env: Readonly<Record<string, string | undefined>>,
): number | undefined {
  const raw = env[MAX_TOOL_CALLS_ENV]?.trim();
  if (!raw) return undefined;
  try {
    return positiveInt(command, 'max-tool-calls', raw);
  } catch {
    throw new UsageError(
      `logbook ${command}: ${MAX_TOOL_CALLS_ENV} must be a positive integer, got "${raw}".`,
    );
  }
}
