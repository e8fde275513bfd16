// A replay runs in a copy of the recorded workspace, but the recorded tool calls name the folders
// the recording ran in. Before a call runs, each recorded folder at the start of a path in its
// arguments (a file tool's path, a command's text or cwd, an MCP tool's argument) becomes the copy's;
// then any path argument that still leads outside the copy is refused: the call is answered with
// the refusal, which differs from the recorded result, so the replay reports it as a divergence.
import { isAbsolute, relative } from 'node:path';
import type { ActionEvent } from '../events';
import { resolveToolPath } from '../security/resolve-path';

/** A recorded folder and the copy's folder that stands for it. */
export interface FolderMap {
  from: string;
  to: string;
}

/** Characters a path goes on with: a folder followed by one of these is another folder's prefix. */
const PATH_CHAR = /[A-Za-z0-9._~@+%-]/;

/**
 * `text` with each recorded folder that starts a path replaced by its copy: only where the folder
 * is a whole path of its own or a parent of one (nothing path-like before it, `/` or a non-path
 * character after it), the longest folder first (a conversation's folder inside its workspace).
 */
export function mapFolders(text: string, maps: readonly FolderMap[]): string {
  const sorted = [...maps].filter((m) => m.from !== '').sort((a, b) => b.from.length - a.from.length);
  let out = '';
  let i = 0;
  outer: while (i < text.length) {
    for (const m of sorted) {
      if (!text.startsWith(m.from, i)) continue;
      const before = i === 0 ? '' : text[i - 1]!;
      const after = text[i + m.from.length] ?? '';
      if (
        (before === '' || !(PATH_CHAR.test(before) || before === '/')) &&
        (after === '' || !PATH_CHAR.test(after))
      ) {
        out += m.to;
        i += m.from.length;
        continue outer;
      }
    }
    out += text[i]!;
    i++;
  }
  return out;
}

/** Every string inside a JSON value mapped (keys as they are). */
function mapStrings(value: unknown, map: (s: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, map)]));
  return value;
}

/**
 * A tool call's argument text with the recorded folders mapped into the copy. Text that is not
 * JSON is left as it is: the tool refuses it as the recording's did.
 */
export function mapCallArguments(args: string, maps: readonly FolderMap[]): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return args;
  }
  const mapped = mapStrings(parsed, (s) => mapFolders(s, maps));
  return JSON.stringify(mapped) === JSON.stringify(parsed) ? args : JSON.stringify(mapped);
}

/** Argument names that hold a path, in the built-in tools and by MCP servers' custom. */
const PATH_KEY =
  /^(path|paths|cwd|dir|directory|folder|file|filename|file_?path|root|target|source|destination)$|_(path|paths|dir|directory|folder|file)$/i;

function pathArguments(value: unknown, key = ''): string[] {
  if (typeof value === 'string') return PATH_KEY.test(key) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => pathArguments(v, key));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => pathArguments(v, k));
  return [];
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Why an action may not run in a replay whose copy is `root` (its workspace is `cwd`): a path
 * argument that leads outside the copy, symlinks followed; null when every one stays inside.
 */
export function outsideTheCopy(action: ActionEvent, root: string, cwd: string): string | null {
  let args: unknown;
  try {
    args = JSON.parse(action.tool_call.arguments);
  } catch {
    return null; // refused by the tool's validation, as when it was recorded
  }
  for (const raw of pathArguments(args)) {
    const resolved = resolveToolPath(raw, cwd);
    if (!resolved.ok) continue; // the tool refuses it itself
    if (inside(root, resolved.path) && inside(root, resolved.real)) continue;
    return `The replay refused this ${action.tool_name} call: ${raw} leads outside the replay's copy of the workspace (${root}), and a replay touches nothing else.`;
  }
  return null;
}
