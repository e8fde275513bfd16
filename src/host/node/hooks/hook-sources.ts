// Where hooks come from: the user's own `logbook.hooks` setting (read only from the user's
// settings, like every setting that guards them), and a repository's `.claude/settings.json` (its
// `hooks` key) and `.logbook/hooks.json` (same schema). A repository's hooks run only in a trusted
// workspace and once the user has accepted them by their command lines (accepted-hooks.ts); any
// change to them is new content and is asked about again.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pinnedScripts } from './pinned-scripts';
import { type ConfiguredHook, type HookOrigin, hookLines, parseHooks } from '../../../core/hooks/hook-config';

export const REPOSITORY_HOOK_FILES = ['.claude/settings.json', '.logbook/hooks.json'] as const;
export type RepositoryHookOrigin = (typeof REPOSITORY_HOOK_FILES)[number];

/** The hooks of one repository file, as the user would accept them. */
export interface RepositoryHooks {
  origin: RepositoryHookOrigin;
  file: string;
  hooks: ConfiguredHook[];
  /** SHA-256 of what is accepted: each hook's event, matcher, command line and timeout. */
  fingerprint: string;
}

/** The repository's hook files that hold hooks; a file that is not readable JSON or does not fit is an error. */
export function repositoryHooks(workspace: string): RepositoryHooks[] {
  const out: RepositoryHooks[] = [];
  for (const origin of REPOSITORY_HOOK_FILES) {
    const file = path.join(workspace, origin);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new Error(`${file} cannot be read: ${(err as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new Error(
        `${file} is not valid JSON (${(err as Error).message}); its hooks are not used until it is fixed.`,
      );
    }
    const value =
      json && typeof json === 'object' && !Array.isArray(json)
        ? (json as Record<string, unknown>)['hooks']
        : undefined;
    if (value === undefined) continue;
    const hooks = parseHooks(value, origin as HookOrigin);
    if (!hooks.length) continue;
    out.push({ origin, file, hooks, fingerprint: hooksFingerprint(hooks, workspace) });
  }
  return out;
}

/** Over each hook's event, matcher, command line and timeout, and the content of the scripts it names. */
export function hooksFingerprint(hooks: readonly ConfiguredHook[], workspace: string): string {
  const lines = hooks.map((h) => [
    h.event,
    h.matcher,
    h.command,
    h.timeoutSeconds,
    pinnedScripts(h.command, workspace).map((p) => [path.relative(workspace, p.file), p.sha256]),
  ]);
  return `sha256:${crypto.hash('sha256', JSON.stringify(lines), 'hex')}`;
}

/** What a question or a refusal shows of a repository's hooks. */
export function describeRepositoryHooks(r: RepositoryHooks): string {
  return [`${r.origin} (${r.file}):`, ...hookLines(r.hooks).map((l) => `  ${l}`)].join('\n');
}

/** The user's hooks from the `hooks` setting's value. */
export function userHooks(value: unknown): ConfiguredHook[] {
  return parseHooks(value, 'user');
}
