// What file_editor `view` shows: numbered lines of a file (honouring view_range, truncated with a
// note when large) or a directory tree two levels deep.
import type { FilePort } from './ports';
import { numberLines, splitLines } from './file-edits';
import { formatCount } from './output-cap';
import { isInsideRoot, realPath } from '../security/resolve-path';

export interface ViewLimits {
  /** Characters of numbered lines per view (whole lines only). */
  maxChars: number;
  /** Longer lines (minified code) are cut to this many characters. */
  maxLineChars: number;
  /** Directory entries per view. */
  maxEntries: number;
}

export const DEFAULT_VIEW_LIMITS: ViewLimits = { maxChars: 30_000, maxLineChars: 2_000, maxEntries: 400 };

export type ViewResult = { ok: true; text: string } | { ok: false; error: string };

export function viewFileText(
  path: string,
  text: string,
  viewRange: readonly [number, number] | undefined,
  limits: ViewLimits = DEFAULT_VIEW_LIMITS,
): ViewResult {
  if (text.includes('\u0000'))
    return { ok: false, error: `${path} looks like a binary file; it cannot be viewed as text.` };
  const lines = splitLines(text);
  if (lines.length === 0) return { ok: true, text: `${path} is empty.` };

  const start = viewRange?.[0] ?? 1;
  let end = viewRange?.[1] ?? lines.length;
  const notes: string[] = [];
  if (start < 1 || start > lines.length) {
    return {
      ok: false,
      error: `view_range starts at line ${start}, but ${path} has lines 1 to ${lines.length}.`,
    };
  }
  if (end === -1) end = lines.length;
  if (end < start) {
    return {
      ok: false,
      error: `view_range [${start}, ${end}] ends before it starts; use -1 as the end to read to the end.`,
    };
  }
  if (end > lines.length) {
    notes.push(`[The file has only ${lines.length} lines; showing up to the last one.]`);
    end = lines.length;
  }

  const shown: string[] = [];
  let used = 0;
  for (let n = start; n <= end; n++) {
    let line = lines[n - 1] as string;
    if (line.length > limits.maxLineChars) {
      line = `${line.slice(0, limits.maxLineChars)} [... line cut: ${formatCount(line.length)} characters]`;
    }
    used += line.length + 8;
    if (used > limits.maxChars && shown.length > 0) break;
    shown.push(line);
  }
  const lastShown = start + shown.length - 1;
  if (lastShown < end) {
    notes.push(
      `[Showing lines ${start}-${lastShown} of ${lines.length}: the rest did not fit. ` +
        `Use view_range [${lastShown + 1}, ${end === lines.length ? -1 : end}] to read on, or grep to find what you need.]`,
    );
  }
  const header = `Here is the result of running \`cat -n\` on ${path}:`;
  return { ok: true, text: [header, numberLines(shown, start), ...notes].join('\n') };
}

/**
 * Entries two levels deep, hidden ones left out, node_modules listed but not opened. A folder that
 * is a symlink leading out of the viewed one is listed but not opened: what was rated (and maybe
 * asked about) is the viewed folder, not where its links go. Nor is a folder the sandbox hides
 * (`hiddenPlace`): commands see it empty.
 */
export async function viewDirectory(
  files: FilePort,
  path: string,
  limits: ViewLimits = DEFAULT_VIEW_LIMITS,
  hiddenPlace: (path: string) => boolean = () => false,
): Promise<string> {
  const root = path.endsWith('/') ? path : `${path}/`;
  const out: string[] = [];
  let omitted = 0;
  const add = (entry: string) => {
    if (out.length < limits.maxEntries) out.push(entry);
    else omitted++;
  };
  const realRoot = realPath(path);
  for (const name of visible(await files.list(path))) {
    const folder = root + name.slice(0, -1);
    const leadsOut = name.endsWith('/') && !isInsideRoot(realPath(folder), realRoot);
    const hidden = name.endsWith('/') && !leadsOut && hiddenPlace(folder);
    add(
      leadsOut
        ? `${root}${name} (a symlink leading out of ${root}: not listed)`
        : hidden
          ? `${root}${name} (hidden from the agent like from its commands: not listed)`
          : root + name,
    );
    if (!name.endsWith('/') || name === 'node_modules/' || leadsOut || hidden) continue;
    for (const child of visible(await files.list(folder))) add(root + name + child);
  }
  const header = `Files and directories up to 2 levels deep in ${root} (hidden entries left out, node_modules not expanded):`;
  const tail =
    omitted > 0
      ? [`[... ${formatCount(omitted)} more entries not shown; view a subdirectory to see them.]`]
      : [];
  return [header, root, ...out, ...tail].join('\n');
}

function visible(names: readonly string[]): string[] {
  return names.filter((name) => !name.startsWith('.')).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
