// The one reader (and writer) of the editor's configuration: the `logbook.*` settings, resolved
// through the schema the CLI reads too (src/core/settings), so both hosts share names, defaults and
// validation; the API key from SecretStorage; and the few settings of VS Code's own Logbook follows.
// Read at each use, so a change in Settings applies to the next step without a reload. No other
// module calls getConfiguration (test/unit/architecture/settings-reader.test.ts).
import * as vscode from 'vscode';
import { DEFAULT_AGENT_SETTINGS, type AgentSettings } from '../../../core/agent/settings';
import type { LlmSettings } from '../../../core/llm';
import { llmVariable } from '../../../core/llm/environment-names';
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
  valueText,
} from '../../../core/settings';
import { writeSettingsFile } from './settings-file';

// The key in VS Code's secret storage keeps the settings' old prefix: renaming it would lose every
// stored key.
export const API_KEY_SECRET = 'logbook.llm.apiKey';

function cfg(scope?: vscode.Uri) {
  return vscode.workspace.getConfiguration('logbook', scope);
}

const EDITOR_LAYERS = ['user', 'workspace', 'folder'] as const;

/** A settings file of the window other than the user's: the workspace's, or a folder's. */
export type WorkspaceLayer = 'workspace' | 'folder';

/**
 * Where the user's acceptances of a workspace's values are kept: the extension's global state,
 * which no file of the workspace (and so no edit of the agent's) can change. Unset, none counts.
 */
let acceptances: vscode.Memento | undefined;
const ACCEPTED_KEY = 'logbook.acceptedWorkspaceSettings';

export function keepAcceptancesIn(state: vscode.Memento): void {
  acceptances = state;
}

/** The window's workspace: its .code-workspace file, or its one folder. */
function workspaceId(): string | undefined {
  return (vscode.workspace.workspaceFile ?? vscode.workspace.workspaceFolders?.[0]?.uri)?.toString();
}

function acceptanceKey(key: string, layer: WorkspaceLayer): string | undefined {
  const id = workspaceId();
  return id === undefined ? undefined : `${id}\n${layer}\nlogbook.${key}`;
}

/** Whether the user accepted exactly this value of `key` in this workspace's `layer`. */
function isAccepted(key: string, layer: WorkspaceLayer, value: unknown): boolean {
  const at = acceptanceKey(key, layer);
  if (value === undefined || at === undefined || !acceptances) return false;
  return acceptances.get<Record<string, string>>(ACCEPTED_KEY, {})[at] === valueText(value);
}

/** A workspace's value of a guarding setting that is not used. */
export interface IgnoredWorkspaceValue {
  key: string;
  layer: WorkspaceLayer;
  value: unknown;
  /** A machine setting: VS Code itself never applies a workspace's value, accepted or not. */
  machine: boolean;
}

/** The workspace's (and folder's) values of guarding settings not in effect, as they are now. */
export function ignoredWorkspaceValues(): IgnoredWorkspaceValue[] {
  const c = cfg();
  return SETTINGS.filter((d) => d.guards && d.hosts.includes('vscode')).flatMap((def) => {
    const seen = c.inspect(def.key);
    return (
      [
        ['workspace', seen?.workspaceValue],
        ['folder', seen?.workspaceFolderValue],
      ] as const
    )
      .filter(([layer, value]) => value !== undefined && !isAccepted(def.key, layer, value))
      .map(([layer, value]) => ({ key: def.key, layer, value, machine: def.scope === 'machine' }));
  });
}

/**
 * Accepts the values the workspace holds now for a guarding setting (`key` without `logbook.`):
 * they are used until they change. Returns the values accepted (none when it sets none).
 */
export async function acceptWorkspaceValue(
  key: string,
  layers: readonly WorkspaceLayer[] = ['workspace', 'folder'],
): Promise<IgnoredWorkspaceValue[]> {
  if (!SETTINGS_BY_KEY.get(key)?.guards)
    throw new Error(`logbook.${key} does not guard you: nothing to accept.`);
  if (!acceptances) throw new Error('Workspace values cannot be accepted before Logbook is activated.');
  const seen = cfg().inspect(key);
  const taken: IgnoredWorkspaceValue[] = [];
  const accepted = { ...acceptances.get<Record<string, string>>(ACCEPTED_KEY, {}) };
  for (const [layer, value] of [
    ['workspace', seen?.workspaceValue],
    ['folder', seen?.workspaceFolderValue],
  ] as const) {
    const at = acceptanceKey(key, layer);
    if (value === undefined || at === undefined || !layers.includes(layer)) continue;
    accepted[at] = valueText(value);
    taken.push({ key, layer, value, machine: SETTINGS_BY_KEY.get(key)?.scope === 'machine' });
  }
  await acceptances.update(ACCEPTED_KEY, accepted);
  return taken;
}

/**
 * Writes a guarding setting into the workspace's settings on the user's own command, accepting the
 * value first: the change it makes is never told as a workspace's value to accept.
 */
export async function writeAcceptedWorkspaceValue(
  key: string,
  value: unknown,
  layer: WorkspaceLayer = 'workspace',
): Promise<void> {
  const at = acceptanceKey(key, layer);
  if (acceptances && at !== undefined) {
    const accepted = acceptances.get<Record<string, string>>(ACCEPTED_KEY, {});
    await acceptances.update(ACCEPTED_KEY, { ...accepted, [at]: valueText(value) });
  }
  await writeWorkspaceSetting(key, value, layer);
}

/**
 * Whether VS Code's API refuses this write, before it touches the file: a value for a key it does
 * not know, for a machine setting in a workspace, or for a setting in a folder of a multi-root
 * window (no Logbook setting has the resource scope VS Code reads from a folder's file there).
 */
function checkedByVscode(key: string, value: unknown, layer: WorkspaceLayer): boolean {
  if (value === undefined) return false;
  const def = SETTINGS_BY_KEY.get(key);
  if (def === undefined || def.scope === 'machine') return true;
  return layer === 'folder' && vscode.workspace.workspaceFile !== undefined;
}

/**
 * Writes (or, with undefined, removes) `key` in the workspace's or a folder's settings file: on
 * disk, not through VS Code's open copy of the file (see settings-file.ts), so the write lands or
 * fails with a message, and never leaves the user's settings.json with an unsaved edit.
 */
async function writeWorkspaceSetting(
  key: string,
  value: unknown,
  layer: WorkspaceLayer,
  folder?: vscode.WorkspaceFolder,
): Promise<void> {
  const scope = folder?.uri ?? (layer === 'folder' ? vscode.workspace.workspaceFolders?.[0]?.uri : undefined);
  // In a one-folder window the folder's settings file is the workspace's.
  const ownFolderFile = layer === 'folder' && vscode.workspace.workspaceFile !== undefined;
  const reads = () => {
    const seen = cfg(scope).inspect(key);
    return ownFolderFile ? seen?.workspaceFolderValue : seen?.workspaceValue;
  };
  if (
    !checkedByVscode(key, value, layer) &&
    (await writeSettingsFile(`logbook.${key}`, value, layer, scope, reads))
  )
    return;
  // VS Code's API: where there is no file of the workspace's own, or a write it refuses before it
  // edits the file (so it leaves no unsaved copy), saying why.
  const target =
    layer === 'folder' ? vscode.ConfigurationTarget.WorkspaceFolder : vscode.ConfigurationTarget.Workspace;
  await cfg(scope).update(key, value, target);
}

/**
 * Forgets the acceptances of values the workspace no longer sets: an accepted value that is
 * removed and later written again (by the agent, say) is asked about again.
 */
export async function forgetRemovedAcceptances(): Promise<void> {
  if (!acceptances) return;
  const accepted = { ...acceptances.get<Record<string, string>>(ACCEPTED_KEY, {}) };
  let changed = false;
  for (const def of SETTINGS.filter((d) => d.guards)) {
    const seen = cfg().inspect(def.key);
    for (const [layer, value] of [
      ['workspace', seen?.workspaceValue],
      ['folder', seen?.workspaceFolderValue],
    ] as const) {
      const at = acceptanceKey(def.key, layer);
      if (value !== undefined || at === undefined || !(at in accepted)) continue;
      delete accepted[at];
      changed = true;
    }
  }
  if (changed) await acceptances.update(ACCEPTED_KEY, accepted);
}

/**
 * The user, workspace and folder layers of `defs`. A machine setting takes the user's value only:
 * a repository's own settings must never weaken the sandbox or open the network. A guarding
 * setting takes a workspace's value only when the user accepted that very value.
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
    // globalValue only: never a language override, which a workspace's file can hold too.
    const seen = c.inspect(def.key);
    values.user[def.key] = seen?.globalValue;
    if (def.scope === 'machine') continue;
    const own = (layer: WorkspaceLayer, value: unknown) =>
      !def.guards || isAccepted(def.key, layer, value) ? value : undefined;
    values.workspace[def.key] = own('workspace', seen?.workspaceValue);
    values.folder[def.key] = own('folder', seen?.workspaceFolderValue);
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
  if (target === 'workspace') await writeWorkspaceSetting(key, value, 'workspace');
  else await cfg().update(key, value, vscode.ConfigurationTarget.Global);
}

/**
 * Writes `key` where it is set now (folder, then workspace), else into the user's settings. A
 * guarding setting goes there only when the workspace's value is the one in effect (accepted), and
 * the value the user wrote is accepted in turn; else into the user's settings.
 */
export async function writeSettingWhereSet(key: string, value: unknown): Promise<void> {
  const seen = cfg().inspect(key);
  const guards = SETTINGS_BY_KEY.get(key)?.guards === true;
  const used = (layer: WorkspaceLayer, v: unknown) =>
    v !== undefined && (!guards || isAccepted(key, layer, v));
  const target = used('folder', seen?.workspaceFolderValue)
    ? vscode.ConfigurationTarget.WorkspaceFolder
    : used('workspace', seen?.workspaceValue)
      ? vscode.ConfigurationTarget.Workspace
      : vscode.ConfigurationTarget.Global;
  const layer = target === vscode.ConfigurationTarget.Workspace ? 'workspace' : 'folder';
  if (target === vscode.ConfigurationTarget.Global) await cfg().update(key, value, target);
  else if (guards) await writeAcceptedWorkspaceValue(key, value, layer);
  else await writeWorkspaceSetting(key, value, layer);
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
  if (scope.kind === 'user') await cfg().update(key, value, vscode.ConfigurationTarget.Global);
  else if (scope.kind === 'folder') await writeWorkspaceSetting(key, value, 'folder', scope.folder);
  else await writeWorkspaceSetting(key, value, 'workspace');
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

/**
 * Adds an allow rule to the workspace's settings ("Always allow" on a command), and accepts the
 * list so written: the user chose it here, and any other change to it asks again.
 */
export async function addAllowRule(prefix: string): Promise<void> {
  const rules = setting<string[]>('confirmation.allowRules');
  if (rules.includes(prefix)) return;
  await writeAcceptedWorkspaceValue('confirmation.allowRules', [...rules, prefix]);
}

export function readCondenserSettings(): { maxSize: number; keepFirst: number } {
  const settings = readEditorSettings();
  return {
    maxSize: settingValue<number>(settings, 'condenser.maxSize'),
    keepFirst: settingValue<number>(settings, 'condenser.keepFirst'),
  };
}
