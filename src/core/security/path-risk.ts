// Risk of a file path a tool reads, judged where the path really leads (see resolve-path.ts):
// reading a secret is HIGH, reading anywhere else outside the workspace MEDIUM. Writes are judged
// in file-write-risk.ts, with the parts both share here.
import type { RiskAssessment } from './risk';
import { isInsideAny, type PathLookup, resolveToolPath, diskLookup } from './resolve-path';
import { secretReason, sensitiveReadReason } from './sensitive-paths';

/** How a resolved path is named in reasons: its real location too when a symlink leads elsewhere. */
export function described(path: string, real: string): string {
  return real === path ? path : `${path} (a symlink to ${real})`;
}

export interface ResolvedForRisk {
  path: string;
  real: string;
  /** how reasons name it */
  name: string;
}

/**
 * Resolves as the tools will; a path they refuse is LOW (answered with an error, touching nothing).
 * `recordedReal`: where the path led when the call was recorded (the file tools record it, and
 * refuse to act when it leads elsewhere by the time they run), judged in place of where it leads now.
 */
export function resolveForRisk(
  path: string,
  roots: readonly string[],
  lookup: PathLookup,
  recordedReal?: string,
): ResolvedForRisk | RiskAssessment {
  const resolved = resolveToolPath(path, roots[0] ?? '.', lookup);
  if (!resolved.ok) return { risk: 'LOW', reasons: [`refused without touching anything: ${resolved.error}`] };
  const real = recordedReal ?? resolved.real;
  return { path: resolved.path, real, name: described(resolved.path, real) };
}

/**
 * A file with more than one hard link is the same file under another name, which may be anywhere
 * (`ln /etc/x ws/x`); finding the other names would take a scan of the disk, so any second link
 * asks. The file ports write a new file and rename it over the path, which leaves the other names
 * as they were, but the user should know the workspace file stops being shared.
 */
export function sharedFileReason(name: string, real: string, lookup: PathLookup): string | undefined {
  const links = lookup.hardLinks?.(real);
  if (links === undefined || links < 2) return undefined;
  return (
    `${name} has ${links} hard links: writing it in place would also change the same file elsewhere; ` +
    'Logbook writes a new copy instead, and the other links keep the old content'
  );
}

/** Reading: secrets are HIGH; elsewhere outside the workspace and `readable` folders MEDIUM; the rest LOW. */
export function readPathRisk(
  path: string,
  roots: readonly string[],
  readable: readonly string[],
  lookup: PathLookup = diskLookup,
  recordedReal?: string,
): RiskAssessment {
  const resolved = resolveForRisk(path, roots, lookup, recordedReal);
  if ('risk' in resolved) return resolved;
  const { real, name } = resolved;
  const secret = secretReason(resolved.path) ?? secretReason(real);
  if (secret) return { risk: 'HIGH', reasons: [`reads a secret file: ${secret}`] };
  if (!isInsideAny(real, [...roots, ...readable], lookup)) {
    const sensitive = sensitiveReadReason(real);
    return {
      risk: 'MEDIUM',
      reasons: [sensitive ? `reads ${sensitive}` : `reads ${name}, outside the workspace`],
    };
  }
  return { risk: 'LOW', reasons: ['reads inside the workspace'] };
}
