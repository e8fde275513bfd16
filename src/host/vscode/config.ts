// Reads the `logbook.*` settings (and the API key from SecretStorage) into the core's settings
// objects. Read at each use, so a change in Settings applies to the next step without a reload.
import * as vscode from 'vscode';
import { DEFAULT_AGENT_SETTINGS, type AgentSettings, type ConfirmationMode } from '../../core/agent/settings';
import {
  PROMPT_CACHING_MODES,
  type PromptCaching,
  REASONING_EFFORTS,
  type ReasoningEffort,
  readPriceTable,
  type LlmSettings,
} from '../../core/llm';
import { llmVariable } from '../../core/llm/environment-names';

export const API_KEY_SECRET = 'logbook.llm.apiKey';

function cfg() {
  return vscode.workspace.getConfiguration('logbook');
}

export function readAgentSettings(): AgentSettings {
  const c = cfg();
  const positiveOrNull = (v: unknown) => (typeof v === 'number' && v > 0 ? v : null);
  return {
    ...DEFAULT_AGENT_SETTINGS,
    confirmationMode: c.get<ConfirmationMode>('confirmation.mode', DEFAULT_AGENT_SETTINGS.confirmationMode),
    allowRules: c
      .get<string[]>('confirmation.allowRules', [])
      .filter((r) => typeof r === 'string' && r.trim()),
    maxIterations: c.get<number>('maxIterations', DEFAULT_AGENT_SETTINGS.maxIterations),
    maxToolCallsPerReply: c.get<number>('maxToolCallsPerReply', DEFAULT_AGENT_SETTINGS.maxToolCallsPerReply),
    maxTokens: positiveOrNull(c.get('budget.maxTokens')),
    maxCost: positiveOrNull(c.get('budget.maxCost')),
    toolsEnabled: vscode.workspace.isTrusted,
  };
}

export type LlmProvider = 'openai' | 'vscode';

/** Which models Logbook talks to: an OpenAI-compatible endpoint, or the editor's own. */
export function readLlmProvider(): LlmProvider {
  return cfg().get<string>('llm.provider') === 'vscode' ? 'vscode' : 'openai';
}

/** The editor model to use with provider "vscode": an id or a family; empty: the first one offered. */
export function readEditorModel(): string {
  return cfg().get<string>('llm.editorModel', '').trim();
}

/** logbook.agent.defaultMode: the mode a new conversation starts in (plan: read only, answer with a plan). */
export function readDefaultMode(): 'plan' | 'act' {
  return cfg().get<string>('agent.defaultMode', 'act') === 'plan' ? 'plan' : 'act';
}

export async function readLlmSettings(secrets: vscode.SecretStorage): Promise<LlmSettings> {
  const c = cfg();
  const apiKey = (await secrets.get(API_KEY_SECRET)) ?? llmVariable(process.env, 'apiKey')?.value ?? '';
  return {
    baseUrl: c.get<string>('llm.baseUrl', 'https://api.openai.com/v1'),
    apiKey,
    model: c.get<string>('llm.model', 'gpt-4o-mini'),
    temperature: c.get<number | null>('llm.temperature', null),
    maxOutputTokens: c.get<number | null>('llm.maxOutputTokens', null),
    extraHeaders: c.get<Record<string, string>>('llm.extraHeaders', {}),
    replyTimeoutMs: positiveInteger(c.get('llm.replyTimeoutSeconds'), 1000),
    maxReplyBytes: positiveInteger(c.get('llm.maxReplyBytes'), 1),
    // Entries the settings schema flags as invalid are left out; the others still price their models.
    prices: readPriceTable(c.get('llm.pricing')).table,
    promptCaching: oneOf<PromptCaching>(c.get('llm.promptCaching'), PROMPT_CACHING_MODES),
    // "default" in Settings: the endpoint decides, and no field is sent.
    reasoningEffort: oneOf<ReasoningEffort>(c.get('llm.reasoningEffort'), REASONING_EFFORTS),
  };
}

function oneOf<T extends string>(v: unknown, choices: readonly T[]): T | null {
  return typeof v === 'string' && (choices as readonly string[]).includes(v) ? (v as T) : null;
}

/** A hand-edited settings.json can hold anything: a bad value means the default, not a failed call. */
function positiveInteger(v: unknown, scale: number): number | null {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v * scale : null;
}

/** `logbook.llm.supportsImages`: whether attached images are sent to the model (else a note says so). */
export function llmSupportsImages(): boolean {
  return vscode.workspace.getConfiguration('logbook').get<boolean>('llm.supportsImages', true) !== false;
}

export function terminalTimeoutSeconds(): number {
  return cfg().get<number>('terminal.timeoutSeconds', 30);
}

/** Variables of Logbook's own (OPENAI_API_KEY, LOGBOOK_*) the user lets the agent's terminal see. */
export function terminalPassEnvironment(): string[] {
  const names = cfg().get<unknown>('terminal.passEnvironment', []);
  return Array.isArray(names)
    ? names.filter((n): n is string => typeof n === 'string' && n.trim() !== '')
    : [];
}

/** Adds an allow rule to the workspace's settings ("Always allow" on a command). */
export async function addAllowRule(prefix: string): Promise<void> {
  const rules = cfg().get<string[]>('confirmation.allowRules', []);
  if (rules.includes(prefix)) return;
  await cfg().update('confirmation.allowRules', [...rules, prefix], vscode.ConfigurationTarget.Workspace);
}

export function readCondenserSettings(): { maxSize: number; keepFirst: number } {
  return {
    maxSize: cfg().get<number>('condenser.maxSize', 120),
    keepFirst: cfg().get<number>('condenser.keepFirst', 4),
  };
}
