// What a checkpoint taken now would leave out: the files and folders git ignores or the store's
// excludes leave out, and the files over the size cap. A first reading of the coverage contract
// (core/checkpoints/types.ts), enough for the confirmation policy to weigh.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { UnheldPath } from '../../../core/checkpoints/types';
import type { CheckpointLimits } from './checkpoint-limits';
import type { CheckpointRepo } from './checkpoint-repo';
import { runGit, splitNul, type GitPaths } from './git-process';

export async function unheldPaths(
  repo: CheckpointRepo,
  paths: GitPaths,
  workspace: string,
  limits: CheckpointLimits,
): Promise<UnheldPath[]> {
  await repo.init();
  repo.writeExcludes();
  const unheld: UnheldPath[] = [];
  const ignored = await runGit(paths, ['ls-files', '-z', '-o', '-i', '--exclude-standard', '--directory']);
  for (const p of splitNul(ignored.stdout)) unheld.push({ path: absolute(workspace, p), why: 'ignored' });
  const listed = await runGit(paths, ['ls-files', '-z', '-c', '-o', '--exclude-standard']);
  for (const p of splitNul(listed.stdout)) {
    if (p.endsWith('/')) continue; // a nested repository: its files are not weighed here
    try {
      const st = lstatSync(join(workspace, p));
      if (st.isFile() && st.size > limits.maxFileBytes)
        unheld.push({ path: join(workspace, p), why: 'too-large' });
    } catch {
      // gone since it was listed
    }
  }
  return unheld;
}

function absolute(workspace: string, p: string): string {
  return p.endsWith('/') ? `${join(workspace, p.slice(0, -1))}/` : join(workspace, p);
}
