// ACP's `usage_update` from the recorded `llm_usage` events. `used` is what the agent's last model
// call held (its prompt and its reply); `cost` the session's total in USD, as `logbook show` counts
// it, when the model has a price. `size`, the model's context window, is required by the type but unknown for an arbitrary
// endpoint, so it is 0 ("unknown"), and `_meta` says so.
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { LLM_USAGE_KEY } from '../../../core/state';

const AGENT_USAGE = 'agent';

interface UsageValue {
  usage_id?: unknown;
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  cost?: unknown;
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

export class UsageTally {
  private cost = 0;

  /** The update one `llm_usage` event makes; undefined for any other key, or a call not the agent's. */
  of(key: string, value: unknown): SessionUpdate | undefined {
    if (key !== LLM_USAGE_KEY || !value || typeof value !== 'object') return undefined;
    const v = value as UsageValue;
    // Every model call costs (the condenser's too); only the agent's says what its context holds.
    this.cost += count(v.cost);
    if (v.usage_id !== AGENT_USAGE) return undefined;
    return {
      sessionUpdate: 'usage_update',
      used: count(v.prompt_tokens) + count(v.completion_tokens),
      size: 0,
      // A model with no price has no cost to report, rather than a cost of nothing.
      ...(this.cost > 0 ? { cost: { amount: Math.round(this.cost * 1e6) / 1e6, currency: 'USD' } } : {}),
      _meta: { logbook: { sizeUnknown: true } },
    };
  }
}
