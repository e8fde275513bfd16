// Risk of a file path a tool touches: outside the workspace, inside .git, or a secret file is HIGH.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { RiskAssessment } from './risk';
import { secretReason } from './sensitive-paths';

export function isInsideRoot(path: string, root: string): boolean {
  const rel = relative(resolve(root), resolve(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * HIGH when `path` is outside every workspace root, inside a `.git` folder, or a file that may hold
 * secrets; LOW otherwise. Relative paths resolve against the first root. Judged from the text only:
 * a symlink inside the workspace pointing out of it is not detected.
 */
export function pathRisk(path: string, roots: readonly string[]): RiskAssessment {
  const absolute = isAbsolute(path) ? resolve(path) : resolve(roots[0] ?? '.', path);
  const reasons: string[] = [];
  if (!roots.some((root) => isInsideRoot(absolute, root)))
    reasons.push(`${absolute} is outside the workspace`);
  const parts = absolute.split(sep);
  if (parts.includes('.git')) reasons.push(`${absolute} is inside .git (repository internals and hooks)`);
  const secret = secretReason(absolute);
  if (secret) reasons.push(secret);
  return reasons.length > 0
    ? { risk: 'HIGH', reasons }
    : { risk: 'LOW', reasons: [`${absolute} is an ordinary workspace file`] };
}
