// Reads the `logbook.*` settings (and the API key from SecretStorage) into the core's settings
// objects, through the schema the CLI reads too (src/core/settings). Read at each use, so a change
// in Settings applies to the next step without a reload.
import * as vscode from 'vscode';
import { DEFAULT_AGENT_SETTINGS, type AgentSettings } from '../../core/agent/settings';
import type { LlmSettings } from '../../core/llm';
import { llmVariable } from '../../core/llm/environment-names';
import {
  agentSettingsFrom,
  llmSettingsFrom,
  type ResolvedSettings,
  resolveSettings,
  SETTINGS,
  settingValue,
  valuesLayer,
} from '../../core/settings';

export const API_KEY_SECRET = 'logbook.llm.apiKey';

function cfg() {
  return vscode.workspace.getConfiguration('logbook');
}

/**
 * The `logbook.*` settings through the one schema both hosts read: defaults, then user, workspace
 * and folder settings. A hand-edited settings.json can hold anything: a bad value means the one
 * below it (the Settings editor already flags it), not a failed call.
 */
export function readEditorSettings(): ResolvedSettings {
  const c = cfg();
  const layers = { user: {}, workspace: {}, folder: {} } as Record<
    'user' | 'workspace' | 'folder',
    Record<string, unknown>
  >;
  for (const def of SETTINGS) {
    if (!def.hosts.includes('vscode') || def.secret) continue;
    const seen = c.inspect(def.key);
    layers.user[def.key] = seen?.globalValue;
    layers.workspace[def.key] = seen?.workspaceValue;
    layers.folder[def.key] = seen?.workspaceFolderValue;
  }
  return resolveSettings(
    (['user', 'workspace', 'folder'] as const).map((kind) => valuesLayer({ kind }, layers[kind])),
    { host: 'vscode', lenient: {} },
  );
}

function setting<T>(key: string): T {
  return settingValue<T>(readEditorSettings(), key);
}

export function readAgentSettings(): AgentSettings {
  return {
    ...DEFAULT_AGENT_SETTINGS,
    ...agentSettingsFrom(readEditorSettings()),
    toolsEnabled: vscode.workspace.isTrusted,
  };
}

export type LlmProvider = 'openai' | 'vscode';

/** Which models Logbook talks to: an OpenAI-compatible endpoint, or the editor's own. */
export function readLlmProvider(): LlmProvider {
  return setting<LlmProvider>('llm.provider');
}

/** The editor model to use with provider "vscode": an id or a family; empty: the first one offered. */
export function readEditorModel(): string {
  return setting<string>('llm.editorModel').trim();
}

/** logbook.agent.defaultMode: the mode a new conversation starts in (plan: read only, answer with a plan). */
export function readDefaultMode(): 'plan' | 'act' {
  return setting<'plan' | 'act'>('agent.defaultMode');
}

export async function readLlmSettings(secrets: vscode.SecretStorage): Promise<LlmSettings> {
  const apiKey = (await secrets.get(API_KEY_SECRET)) ?? llmVariable(process.env, 'apiKey')?.value ?? '';
  return { ...llmSettingsFrom(readEditorSettings()), apiKey };
}

/** `logbook.llm.supportsImages`: whether attached images are sent to the model (else a note says so). */
export function llmSupportsImages(): boolean {
  return setting<boolean>('llm.supportsImages');
}

export function terminalTimeoutSeconds(): number {
  return setting<number>('terminal.timeoutSeconds');
}

/** Variables of Logbook's own (OPENAI_API_KEY, LOGBOOK_*) the user lets the agent's terminal see. */
export function terminalPassEnvironment(): string[] {
  return setting<string[]>('terminal.passEnvironment').filter((n) => n.trim() !== '');
}

/** Adds an allow rule to the workspace's settings ("Always allow" on a command). */
export async function addAllowRule(prefix: string): Promise<void> {
  const rules = cfg().get<string[]>('confirmation.allowRules', []);
  if (rules.includes(prefix)) return;
  await cfg().update('confirmation.allowRules', [...rules, prefix], vscode.ConfigurationTarget.Workspace);
}

export function readCondenserSettings(): { maxSize: number; keepFirst: number } {
  const settings = readEditorSettings();
  return {
    maxSize: settingValue<number>(settings, 'condenser.maxSize'),
    keepFirst: settingValue<number>(settings, 'condenser.keepFirst'),
  };
}
