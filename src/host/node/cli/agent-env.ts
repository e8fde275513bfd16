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

export const MAX_TOKENS_ENV = 'LOGBOOK_MAX_TOKENS';
export const MAX_COST_ENV = 'LOGBOOK_MAX_COST';

/**
 * The budgets `logbook.budget.maxTokens` and `logbook.budget.maxCost` set in VS Code:
 * LOGBOOK_MAX_TOKENS (a positive integer) and LOGBOOK_MAX_COST (USD, a number above 0).
 */
export function budgetsFromEnv(
  command: string,
  env: Readonly<Record<string, string | undefined>>,
): { maxTokens?: number; maxCost?: number } {
  const out: { maxTokens?: number; maxCost?: number } = {};
  const tokens = env[MAX_TOKENS_ENV]?.trim();
  if (tokens) {
    if (!/^\d+$/.test(tokens) || Number(tokens) === 0)
      throw new UsageError(
        `logbook ${command}: ${MAX_TOKENS_ENV} must be a positive integer, got "${tokens.slice(0, 40)}".`,
      );
    out.maxTokens = Number(tokens);
  }
  const cost = env[MAX_COST_ENV]?.trim();
  if (cost) {
    const n = Number(cost);
    if (!/^\d*\.?\d+$/.test(cost) || !(n > 0))
      throw new UsageError(
        `logbook ${command}: ${MAX_COST_ENV} must be a number of USD above 0, got "${cost.slice(0, 40)}".`,
      );
    out.maxCost = n;
  }
  return out;
}
