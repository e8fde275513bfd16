// A cost cap cannot count a reply of unknown cost: said once per model and conversation (the log
// knows which models it was said for), see cost-cap.ts.
import { COST_UNKNOWN_KEY, costUnknownNotice } from '../cost-cap';
import type { ConversationPolicy } from './policy';

/** `model`: the configured model's name, read at each reply. */
export function costUnknownPolicy(model: () => string): ConversationPolicy {
  return {
    name: 'cost-unknown',
    async afterReply(response, { log, settings }) {
      const name = model();
      if (log.state.costUnknownModels.includes(name)) return;
      const notice = costUnknownNotice(response, name, settings);
      if (!notice) return;
      await log.append('ConversationStateUpdateEvent', { key: COST_UNKNOWN_KEY, value: notice });
    },
  };
}
