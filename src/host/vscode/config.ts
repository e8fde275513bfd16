// The one reader (and writer) of the editor's configuration: the `logbook.*` settings, resolved
// through the schema the CLI reads too (src/core/settings), so both hosts share names, defaults and
// validation; the API key from SecretStorage; and the few settings of VS Code's own Logbook follows.
// Read at each use, so a change in Settings applies to the next step without a reload. No other
// module calls getConfiguration (test/unit/architecture/settings-reader.test.ts).
import * as vscode from 'vscode';
import { DEFAULT_AGENT_SETTINGS, type AgentSettings } from '../../core/agent/settings';
import type { LlmSettings } from '../../core/llm';
import { llmVariable } from '../../core/llm/environment-names';
import {
  agentSettingsFrom,
  type Layer,
  llmSettingsFrom,
  type ResolvedSettings,
  resolveSettings,
  SETTINGS,
  SETTINGS_BY_KEY,
  type SettingDef,
  settingValue,
  valuesLayer,
} from '../../core/settings';

// The key in VS Code's secret storage keeps the settings' old prefix: renaming it would lose every
// stored key.
export const API_KEY_SECRET = 'logbook.llm.apiKey';

function cfg(scope?: vscode.Uri) {
  return vscode.workspace.getConfiguration('logbook', scope);
}

const EDITOR_LAYERS = ['user', 'workspace', 'folder'] as const;

/**
 * The user, workspace and folder layers of `defs`. A machine setting takes the user's value only:
 * a repository's own settings must never weaken the sandbox or open the network.
 */
function editorLayers(defs: readonly SettingDef[]): Layer[] {
  const c = cfg();
  const values: Record<(typeof EDITOR_LAYERS)[number], Record<string, unknown>> = {
    user: {},
    workspace: {},
    folder: {},
  };
  for (const def of defs) {
    if (!def.hosts.includes('vscode') || def.secret) continue;
    const seen = c.inspect(def.key);
    values.user[def.key] = seen?.globalValue;
    if (def.scope === 'machine') continue;
    values.workspace[def.key] = seen?.workspaceValue;
    values.folder[def.key] = seen?.workspaceFolderValue;
  }
  return EDITOR_LAYERS.map((kind) => valuesLayer({ kind }, values[kind]));
}

/**
 * The `logbook.*` settings through the one schema both hosts read: defaults, then user, workspace
 * and folder settings. A hand-edited settings.json can hold anything: a bad value means the one
 * below it (the Settings editor already flags it), not a failed call.
 */
export function readEditorSettings(): ResolvedSettings {
  return resolveSettings(editorLayers(SETTINGS), { host: 'vscode', lenient: {} });
}

/**
 * One `logbook.*` setting (its key without `logbook.`), read as `readEditorSettings` reads it; a
 * value the schema refuses is reported to `onProblem` and the one below it is used.
 */
export function editorSetting<T>(key: string, onProblem?: (message: string) => void): T {
  const def = SETTINGS_BY_KEY.get(key);
  if (!def?.hosts.includes('vscode')) throw new Error(`logbook.${key} is not a setting of the editor.`);
  const resolved = resolveSettings(editorLayers([def]), {
    host: 'vscode',
    lenient: onProblem ? { onProblem } : {},
  });
  return settingValue<T>(resolved, key);
}

/** A list setting without its blank entries. */
export function editorList(key: string): string[] {
  return editorSetting<string[]>(key).filter((s) => s.trim() !== '');
}

export type SettingTarget = 'user' | 'workspace';

/** What the user's or the workspace's own settings hold for `key` (not the value in effect). */
export function settingIn<T>(key: string, target: SettingTarget): T | undefined {
  const seen = cfg().inspect<T>(key);
  return target === 'workspace' ? seen?.workspaceValue : seen?.globalValue;
}

/** Writes `key` into the user's or the workspace's settings. */
export async function writeSetting(key: string, value: unknown, target: SettingTarget): Promise<void> {
  await cfg().update(
    key,
    value,
    target === 'workspace' ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global,
  );
}

/** Writes `key` where it is set now (folder, then workspace), else into the user's settings. */
export async function writeSettingWhereSet(key: string, value: unknown): Promise<void> {
  const seen = cfg().inspect(key);
  const target =
    seen?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : seen?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  await cfg().update(key, value, target);
}

/** One settings file's scope: the user's, the workspace's, or a folder's of a multi-root workspace. */
export type SettingScope =
  { kind: 'user' } | { kind: 'workspace' } | { kind: 'folder'; folder: vscode.WorkspaceFolder };

/** Every scope a `logbook.*` value can be set at in this window. */
export function settingScopes(): SettingScope[] {
  // In a single-folder window the folder's settings are the workspace's: one scope, not two.
  const folders = vscode.workspace.workspaceFile ? (vscode.workspace.workspaceFolders ?? []) : [];
  return [
    { kind: 'user' },
    { kind: 'workspace' },
    ...folders.map((folder) => ({ kind: 'folder' as const, folder })),
  ];
}

/** What `scope`'s own settings hold for `key`, registered or not (an old key no longer is). */
export function settingAt(key: string, scope: SettingScope): unknown {
  if (scope.kind === 'folder') return cfg(scope.folder.uri).inspect(key)?.workspaceFolderValue;
  const seen = cfg().inspect(key);
  return scope.kind === 'workspace' ? seen?.workspaceValue : seen?.globalValue;
}

/** Writes (or, with undefined, removes) `key` in `scope`'s own settings. */
export async function writeSettingAt(key: string, value: unknown, scope: SettingScope): Promise<void> {
  if (scope.kind === 'folder') {
    await cfg(scope.folder.uri).update(key, value, vscode.ConfigurationTarget.WorkspaceFolder);
    return;
  }
  const target =
    scope.kind === 'workspace' ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await cfg().update(key, value, target);
}

/** A setting of VS Code's own (`files.exclude`, `terminal.integrated.…`), with its full name. */
export function vscodeSetting<T>(name: string): T | undefined {
  return vscode.workspace.getConfiguration().get<T>(name);
}

const setting = <T>(key: string): T => editorSetting<T>(key);

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
  return setting<LlmProvider>('model.provider');
}

/** The editor model to use with provider "vscode": an id or a family; empty: the first one offered. */
export function readEditorModel(): string {
  return setting<string>('model.editorModel').trim();
}

/** logbook.agent.defaultMode: the mode a new conversation starts in (plan: read only, answer with a plan). */
export function readDefaultMode(): 'plan' | 'act' {
  return setting<'plan' | 'act'>('agent.defaultMode');
}

export async function readLlmSettings(secrets: vscode.SecretStorage): Promise<LlmSettings> {
  const apiKey = (await secrets.get(API_KEY_SECRET)) ?? llmVariable(process.env, 'apiKey')?.value ?? '';
  return { ...llmSettingsFrom(readEditorSettings()), apiKey };
}

/** `logbook.model.supportsImages`: whether attached images are sent to the model (else a note says so). */
export function llmSupportsImages(): boolean {
  return setting<boolean>('model.supportsImages');
}

export function terminalTimeoutSeconds(): number {
  return setting<number>('terminal.timeoutSeconds');
}

/** Variables of Logbook's own (OPENAI_API_KEY, LOGBOOK_*) the user lets the agent's terminal see. */
export function terminalPassEnvironment(): string[] {
  return editorList('terminal.passEnvironment');
}

/** Adds an allow rule to the workspace's settings ("Always allow" on a command). */
export async function addAllowRule(prefix: string): Promise<void> {
  const rules = setting<string[]>('confirmation.allowRules');
  if (rules.includes(prefix)) return;
  await writeSetting('confirmation.allowRules', [...rules, prefix], 'workspace');
}

export function readCondenserSettings(): { maxSize: number; keepFirst: number } {
  const settings = readEditorSettings();
  return {
    maxSize: settingValue<number>(settings, 'condenser.maxSize'),
    keepFirst: settingValue<number>(settings, 'condenser.keepFirst'),
  };
}
