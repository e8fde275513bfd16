// What the hook check for a user's shell may look at on disk: sourced files (read only when they
// are regular files of bounded size, so a FIFO or a device never blocks the check) and programs
// on PATH (a function named like one would shadow it).
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { HookCheckContext } from '../../../core/security/shell-hooks';

/** A sourced file larger than this is not read: the command is refused instead. */
export const MAX_SOURCED_BYTES = 256 * 1024;

export interface HookCheckPlace {
  /** The shell's working folder. */
  cwd?: string;
  /** The shell's environment, for PATH and HOME. */
  env: NodeJS.ProcessEnv;
}

export function hookCheckContext(place: HookCheckPlace): HookCheckContext {
  const pathDirs = (place.env.PATH ?? '').split(path.delimiter).filter((dir) => path.isAbsolute(dir));
  const regularFile = (file: string) => {
    try {
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  return {
    ...(place.cwd ? { cwd: place.cwd } : {}),
    ...(place.env.HOME ? { home: place.env.HOME } : {}),
    pathDirs,
    isFile: regularFile,
    readScript(file) {
      try {
        const stat = statSync(file);
        if (!stat.isFile() || stat.size > MAX_SOURCED_BYTES) return undefined;
        return readFileSync(file, 'utf8');
      } catch {
        return undefined;
      }
    },
    isProgram(name) {
      return pathDirs.some((dir) => {
        const file = path.join(dir, name);
        if (!regularFile(file)) return false;
        try {
          accessSync(file, constants.X_OK);
          return true;
        } catch {
          return false;
        }
      });
    },
  };
}
