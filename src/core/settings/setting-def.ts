// The shape of one setting, and the helpers the per-category lists (schema.ts, model-settings.ts,
// sandbox-settings.ts) write them with. Its own module so those lists import it without a circle.
import type { Kind } from './kinds';

export type Host = 'cli' | 'vscode';

export interface SettingDef<T = unknown> {
  key: string;
  kind: Kind<T>;
  default: T;
  /** Markdown; the same text VS Code's Settings editor shows. */
  description: string;
  hosts: readonly Host[];
  /** VS Code's scope when it is not `window` (`machine`: a repository's settings cannot change it). */
  scope?: 'machine';
  /**
   * The setting guards the user (what asks first, where the key goes, what runs, what the sandbox
   * and the web let through): only the user's own value counts, never a workspace's, unless the
   * user accepted that workspace's value by name (docs/SECURITY.md).
   */
  guards?: true;
  /** Environment variables, the first one set wins. */
  env?: readonly string[];
  /** The CLI flag (and its other name); `sets` for a flag that takes no value. */
  flag?: { name: string; alias?: string; sets?: T };
  /** A list whose file, environment and flag values add up rather than replace each other. */
  adds?: true;
  /** Never read from a file nor shown: only from the environment (or VS Code's secret storage). */
  secret?: true;
  /** Further problems of a value of the right kind (strict reading only: VS Code keeps what it can). */
  problems?: (value: T) => string[];
  /** Overrides the kind's wording of a valid value, completing "must be …". */
  expect?: string;
}

export function setting<T>(def: SettingDef<T>): SettingDef {
  return def as unknown as SettingDef;
}

export const BOTH: readonly Host[] = ['cli', 'vscode'];
export const VS: readonly Host[] = ['vscode'];
export const CLI: readonly Host[] = ['cli'];
