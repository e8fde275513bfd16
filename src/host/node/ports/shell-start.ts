// Where a conversation's shell starts when it starts again (a new window, a resumed CLI run): where
// the agent's last command left it, so a `cd` the model remembers still holds, if that folder is
// still there; else the workspace folder.
import { statSync } from 'node:fs';

export function shellStartDir(last: string | null, workspace: string): string {
  if (!last) return workspace;
  try {
    return statSync(last).isDirectory() ? last : workspace;
  } catch {
    return workspace;
  }
}
