// A cost cap that cannot count a reply says so. A model without a price (none in the price table,
// none reported by the provider) costs $0 as far as Logbook knows, so `maxCost` would never stop
// it: the conversation records a `cost_unknown` notice, once per model, naming what still limits
// the run (the token budget) or that nothing does.
import type { LlmResponse } from '../llm';
import type { AgentSettings } from './settings';
import { formatCost } from '../format/counts';

export { COST_UNKNOWN_KEY } from '../state';

/** Value of the `cost_unknown` state update; `message` is what the chat and the CLI show. */
export interface CostUnknownValue {
  model: string;
  max_cost: number;
  /** The token budget enforced instead, or null when none is set (the cap is not enforced). */
  max_tokens: number | null;
  message: string;
}

/**
 * The notice for a reply whose cost is unknown while a cost cap is set; undefined when the cost
 * is known or no cap is set. `model` is the configured name, the one to price in the settings.
 */
export function costUnknownNotice(
  response: Pick<LlmResponse, 'costSource'>,
  model: string,
  settings: Pick<AgentSettings, 'maxCost' | 'maxTokens'>,
): CostUnknownValue | undefined {
  const { maxCost, maxTokens } = settings;
  if (maxCost === null || response.costSource !== 'unknown') return undefined;
  const why =
    `The cost of model "${model}" is unknown: it has no price in logbook.model.pricing ` +
    `(LOGBOOK_PRICING for the CLI) and the provider reports no cost, so the cost cap of ${formatCost(maxCost)} cannot count it.`;
  const then =
    maxTokens !== null
      ? ` The token budget of ${maxTokens} tokens is enforced instead.`
      : ' No token budget is set either, so the cost cap cannot be enforced for this model: ' +
        'price the model or set a token budget (logbook.budget.maxTokens, LOGBOOK_MAX_TOKENS).';
  return { model, max_cost: maxCost, max_tokens: maxTokens, message: why + then };
}
