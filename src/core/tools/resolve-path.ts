import { isAbsolute, resolve } from 'node:path';

/** Absolute form of a path the model gave: absolute paths stay, relative ones resolve against `cwd`. */
export function resolveToolPath(path: string, cwd: string): string {
  const trimmed = path.trim();
  return isAbsolute(trimmed) ? resolve(trimmed) : resolve(cwd, trimmed);
}
