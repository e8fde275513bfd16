// One schema of every setting, and the layers that resolve it, for both hosts.
export { type Host, SETTINGS, SETTINGS_BY_KEY, type SettingDef } from './schema';
export type { JsonType, Kind } from './kinds';
export {
  describeSource,
  envLayer,
  fileLayer,
  type FlagValues,
  flagLayer,
  type Layer,
  type LayerValue,
  type ResolvedSettings,
  type ResolvedValue,
  resolveSettings,
  SettingsError,
  type Source,
  valuesLayer,
} from './resolve';
export {
  GUARDING_SETTINGS,
  guardsUser,
  ignoredWorkspaceValueNotice,
  shownValue,
  valueText,
} from './guarding';
export { agentSettingsFrom, llmSettingsFrom, settingValue } from './to-core';
