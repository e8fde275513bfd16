// The resolved settings as the core's settings objects, the same way for both hosts.
import type { AgentSettings, ConfirmationMode } from '../agent/settings';
import { type LlmSettings, type PromptCaching, type ReasoningEffort, readPriceTable } from '../llm';
import type { ResolvedSettings } from './resolve';

/** The value of `key`; throws when the host's settings do not have it (a programming error). */
export function settingValue<T>(settings: ResolvedSettings, key: string): T {
  const entry = settings.get(key);
  if (!entry) throw new Error(`No setting ${key} in these settings.`);
  return entry.value as T;
}

function optional<T>(settings: ResolvedSettings, key: string): T | undefined {
  return settings.get(key)?.value as T | undefined;
}

export function llmSettingsFrom(settings: ResolvedSettings): LlmSettings {
  const get = <T>(key: string) => settingValue<T>(settings, key);
  const effort = get<string>('model.reasoningEffort');
  const temperature = optional<number | null>(settings, 'model.temperature');
  const maxOutputTokens = optional<number | null>(settings, 'model.maxOutputTokens');
  const extraHeaders = optional<Record<string, string>>(settings, 'model.extraHeaders');
  return {
    baseUrl: get<string>('model.baseURL'),
    apiKey: get<string>('model.apiKey'),
    model: get<string>('model.name'),
    replyTimeoutMs: get<number>('model.replyTimeoutSeconds') * 1000,
    maxReplyBytes: get<number>('model.maxReplyBytes'),
    // Entries that are not prices are left out (a strict reading has refused them already).
    prices: readPriceTable(get('model.pricing')).table,
    promptCaching: get<PromptCaching>('model.promptCaching'),
    // "default": the endpoint decides, and no field is sent.
    reasoningEffort: effort === 'default' ? null : (effort as ReasoningEffort),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
    ...(extraHeaders !== undefined ? { extraHeaders } : {}),
  };
}

/** The agent's settings the schema holds (the host adds the rest, such as toolsEnabled). */
export function agentSettingsFrom(
  settings: ResolvedSettings,
): Pick<
  AgentSettings,
  'confirmationMode' | 'maxIterations' | 'maxToolCallsPerReply' | 'maxTokens' | 'maxCost'
> &
  Partial<Pick<AgentSettings, 'allowRules'>> {
  const get = <T>(key: string) => settingValue<T>(settings, key);
  const allowRules = optional<string[]>(settings, 'confirmation.allowRules');
  return {
    confirmationMode: get<ConfirmationMode>('confirmation.mode'),
    maxIterations: get<number>('maxIterations'),
    maxToolCallsPerReply: get<number>('maxToolCallsPerReply'),
    maxTokens: get<number | null>('budget.maxTokens'),
    maxCost: get<number | null>('budget.maxCost'),
    ...(allowRules !== undefined ? { allowRules: allowRules.filter((r) => r.trim() !== '') } : {}),
  };
}
