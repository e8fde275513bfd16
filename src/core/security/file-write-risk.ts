// Risk of a file tool's write (file_editor create, str_replace, insert, undo_edit), judged where the
// path really leads. The boundary is the sandbox's: the workspace folders and the user's writable
// folders, in every confirmation mode (the mode decides what is asked, never where the agent can
// write). A write anywhere else is refused by the tool before it touches anything, so it is not
// asked about. Inside, a file that runs later in the user's own context is HIGH, a build or task
// file MEDIUM (code the user will run), a file with other hard links MEDIUM.
import { described, sharedFileReason } from './path-risk';
import { diskLookup, isInsideAny, type PathLookup, resolveToolPath, workspaceRelative } from './resolve-path';
import type { RiskAssessment } from './risk';
import { buildFileReason, runsLaterReason } from './runs-later';
import { internalsReason, secretReason } from './sensitive-paths';
import { packageScriptsChange, type FileChange } from './package-scripts';

export type { FileChange };

export interface FileWriteOptions {
  /** Folders besides the workspace the agent may write (`logbook.sandbox.writable`). */
  writable?: readonly string[];
  /** Where the path led when the call was recorded: judged in place of where it leads now. */
  recordedReal?: string;
  /** What the call changes, for telling whether a build file's commands change. */
  change?: FileChange;
  lookup?: PathLookup;
  /** The file's current text (for a package.json edit); undefined when missing or unreadable. */
  readText?: (path: string) => string | undefined;
}

/** Why a real path is not one the file tools may write, or undefined when it is. */
export function outsideWriteReason(
  name: string,
  real: string,
  roots: readonly string[],
  writable: readonly string[],
  lookup: PathLookup = diskLookup,
): string | undefined {
  if (isInsideAny(real, [...roots, ...writable], lookup)) return undefined;
  return (
    `${name} is outside the folders the agent may write (the workspace folders` +
    `${writable.length > 0 ? ` and ${writable.join(', ')}` : ''}), in every confirmation mode`
  );
}

export function fileWriteRisk(
  path: string,
  roots: readonly string[],
  opts: FileWriteOptions = {},
): RiskAssessment {
  const lookup = opts.lookup ?? diskLookup;
  const writable = opts.writable ?? [];
  const resolved = resolveToolPath(path, roots[0] ?? '.', lookup);
  if (!resolved.ok) return { risk: 'LOW', reasons: [`refused without touching anything: ${resolved.error}`] };
  const real = opts.recordedReal ?? resolved.real;
  const name = described(resolved.path, real);
  const outside = outsideWriteReason(name, real, roots, writable, lookup);
  if (outside) return { risk: 'LOW', reasons: [`refused without touching anything: ${outside}`] };

  const rels = [workspaceRelative(real, roots, lookup), workspaceRelative(resolved.path, roots, lookup)];
  const reasons: string[] = [];
  const later = rels.map((rel) => rel && runsLaterReason(rel)).find((r) => r !== undefined);
  if (later) reasons.push(later);
  const internal = later ? undefined : (internalsReason(resolved.path) ?? internalsReason(real));
  if (internal) reasons.push(internal);
  const secret = secretReason(resolved.path) ?? secretReason(real);
  if (secret) reasons.push(secret);
  if (reasons.length > 0) return { risk: 'HIGH', reasons };

  const medium: string[] = [];
  const build = rels.map((rel) => rel && buildFileReason(rel)).find((r) => r !== undefined);
  if (build && buildFileChanges(real, opts)) medium.push(build);
  const shared = sharedFileReason(name, real, lookup);
  if (shared) medium.push(shared);
  if (medium.length > 0) return { risk: 'MEDIUM', reasons: medium };
  return { risk: 'LOW', reasons: [`${resolved.path} is an ordinary workspace file`] };
}

/** A package.json counts only when its scripts change; other build files whenever they are written. */
function buildFileChanges(real: string, opts: FileWriteOptions): boolean {
  if (!/(^|[\\/])package\.json$/.test(real) || !opts.change) return true;
  const current = opts.readText ? opts.readText(real) : undefined;
  return packageScriptsChange(opts.change, current);
}
