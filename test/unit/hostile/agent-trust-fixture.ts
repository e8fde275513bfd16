// The conversation folders a workspace holds (a test that runs several conversations in one
// workspace tells them apart by which appeared).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export function conversationDirs(workspace: string): string[] {
  const root = join(workspace, '.logbook', 'conversations');
  return existsSync(root) ? readdirSync(root).map((n) => join(root, n)) : [];
}
