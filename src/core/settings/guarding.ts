// The settings that guard the user (marked `guards` in the schema): what asks before it runs, where
// the API key goes, what starts, what the sandbox and the web let through. A repository, or an
// agent's edit to one, must not change them, so both hosts take them from the user's own settings
// only; a workspace's value counts only once the user has accepted that very value by name.
import { SETTINGS, SETTINGS_BY_KEY, type SettingDef } from './schema';

export const GUARDING_SETTINGS: readonly SettingDef[] = SETTINGS.filter((s) => s.guards);

export function guardsUser(key: string): boolean {
  return SETTINGS_BY_KEY.get(key)?.guards === true;
}

/**
 * A value as text that does not depend on the order of an object's keys: what an acceptance
 * remembers, so the same value is not asked about again and any other value is.
 */
export function valueText(value: unknown): string {
  return JSON.stringify(sorted(value)) ?? 'undefined';
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
  );
}

/** The value as a notice shows it: short, one line. */
export function shownValue(value: unknown): string {
  const text = valueText(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** The notice about a workspace's value that is not used, naming the setting and where it is. */
export function ignoredWorkspaceValueNotice(key: string, where: string, value: unknown): string {
  return `${where} sets logbook.${key} to ${shownValue(value)}; ignored: this setting guards you, so only your own settings count until you accept this workspace's value by name.`;
}
