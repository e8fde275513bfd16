// The conversation's budgets (logbook.budget.maxTokens, maxCost): once over one, no further request
// is made, also when the conversation is resumed or given a new message.
import type { ConversationPolicy, PolicyContext, Verdict } from './policy';
import { formatCost } from '../../format/counts';

export const budgetPolicy: ConversationPolicy = {
  name: 'budget',
  beforeRequest: stopOverBudget,
  beforeNextStep: stopOverBudget,
};

async function stopOverBudget({ log, settings }: PolicyContext): Promise<Verdict> {
  const t = log.state.metrics.total;
  const { maxTokens, maxCost } = settings;
  if (maxTokens !== null && t.promptTokens + t.completionTokens > maxTokens) {
    await log.fail(
      'token_budget',
      `The conversation used ${t.promptTokens + t.completionTokens} tokens, over its budget of ${maxTokens}.`,
    );
    return 'stop';
  }
  if (maxCost !== null && t.cost > maxCost) {
    await log.fail(
      'cost_budget',
      `The conversation cost ${formatCost(t.cost)}, over its budget of ${formatCost(maxCost)}.`,
    );
    return 'stop';
  }
  return 'go';
}
