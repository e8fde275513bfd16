// The repository hooks the user accepted: `accepted-hooks.json` in the Logbook config folder, by
// workspace, file and fingerprint of the command lines. The sandbox hides the config folder and
// the file tools write only in the workspace, so the agent cannot accept hooks for the user; and
// the hook files themselves are protected (core/security/runs-later.ts), so it cannot change them
// unasked either.
import fs from 'node:fs';
import path from 'node:path';
import { writeFileDurable } from '../../../core/log/durable-file';
import { type Env, logbookConfigDir } from '../config-dir';
import type { RepositoryHooks } from './hook-sources';

export interface AcceptedHooks {
  workspace: string;
  origin: string;
  fingerprint: string;
  accepted_at: string;
}

export function acceptedHooksPath(env: Env): string {
  return path.join(logbookConfigDir(env), 'accepted-hooks.json');
}

export function readAcceptedHooks(env: Env): AcceptedHooks[] {
  const file = acceptedHooksPath(env);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const bad = () =>
    new Error(
      `${file} is not Logbook's list of accepted hooks ({"accepted":[{"workspace","origin","fingerprint","accepted_at"}]}); ` +
        'no repository hook runs until it is repaired or removed.',
    );
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw bad();
  }
  const list = (v as { accepted?: unknown } | null)?.accepted;
  if (!Array.isArray(list)) throw bad();
  return list.map((a: unknown) => {
    const { workspace, origin, fingerprint, accepted_at } = (a ?? {}) as Record<string, unknown>;
    if ([workspace, origin, fingerprint, accepted_at].some((x) => typeof x !== 'string')) throw bad();
    return { workspace, origin, fingerprint, accepted_at } as AcceptedHooks;
  });
}

/** A repository file's content (its `origin` and `fingerprint`) the user accepted; hooks and worktree setup alike. */
export type AcceptedContent = Pick<RepositoryHooks, 'fingerprint'> & { origin: string };

export function isAccepted(env: Env, workspace: string, r: AcceptedContent): boolean {
  const ws = path.resolve(workspace);
  return readAcceptedHooks(env).some(
    (a) => a.workspace === ws && a.origin === r.origin && a.fingerprint === r.fingerprint,
  );
}

/** Records that the user accepted these hooks as they are now (an older acceptance of the file is replaced). */
export function acceptHooks(env: Env, workspace: string, r: AcceptedContent): AcceptedHooks {
  const ws = path.resolve(workspace);
  const kept = readAcceptedHooks(env).filter((a) => !(a.workspace === ws && a.origin === r.origin));
  const entry: AcceptedHooks = {
    workspace: ws,
    origin: r.origin,
    fingerprint: r.fingerprint,
    accepted_at: new Date().toISOString(),
  };
  const file = acceptedHooksPath(env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileDurable(file, JSON.stringify({ accepted: [...kept, entry] }, null, 2) + '\n');
  return entry;
}
