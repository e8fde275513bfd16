// Where a remote conversation runs, as its folder records it (remote.json), and the check made
// before its session key is sent anywhere. Kept apart from the run's modules so the commands that
// only read a folder (show, diff) do not load the agent's.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export const REMOTE_KEY_VARIABLE = 'LOGBOOK_REMOTE_KEY';

/** What a remote conversation's folder records of where it runs (for show, approve and resume). */
export interface RemoteOrigin {
  server: string;
  conversation_id: string;
  working_dir: string;
  /** Where the server came from when a runtime API started it (never its key or the server's). */
  runtime?: RuntimeOrigin;
  /** Plan mode: the server holds every action and Logbook refuses what writes or runs (act when absent). */
  mode?: 'plan';
  /**
   * The commit HEAD was on in the working folder when the conversation started (git's empty tree
   * when it had none): the base of the server's change, so what the agent commits there is in it.
   */
  base_commit?: string;
}

export interface RuntimeOrigin {
  api_url: string;
  session_id: string;
  runtime_id: string;
}

export const REMOTE_ORIGIN_FILE = 'remote.json';

export function writeRemoteOrigin(dir: string, origin: RemoteOrigin): void {
  writeFileSync(join(dir, REMOTE_ORIGIN_FILE), `${JSON.stringify(origin)}\n`, { mode: 0o600 });
}

/** The folder's remote origin, or undefined for a local conversation (or an unreadable file). */
export function readRemoteOrigin(dir: string): RemoteOrigin | undefined {
  try {
    const v = JSON.parse(readFileSync(join(dir, REMOTE_ORIGIN_FILE), 'utf8')) as Partial<RemoteOrigin>;
    if (
      typeof v.server === 'string' &&
      typeof v.conversation_id === 'string' &&
      typeof v.working_dir === 'string'
    ) {
      const r = v.runtime;
      const runtime =
        r &&
        typeof r.api_url === 'string' &&
        typeof r.session_id === 'string' &&
        typeof r.runtime_id === 'string'
          ? { runtime: { api_url: r.api_url, session_id: r.session_id, runtime_id: r.runtime_id } }
          : {};
      return {
        server: v.server,
        conversation_id: v.conversation_id,
        working_dir: v.working_dir,
        ...runtime,
        ...(v.mode === 'plan' ? { mode: 'plan' as const } : {}),
        // Sent back to the server as a git ref: a commit id only.
        ...(typeof v.base_commit === 'string' && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(v.base_commit)
          ? { base_commit: v.base_commit }
          : {}),
      };
    }
  } catch {
    // no file: a local conversation
  }
  return undefined;
}

/**
 * remote.json is not signed: before the key goes to the server it names, that server must be the
 * one the signed log says every event came from, and its conversation the folder's.
 */
export function assertFromServer(
  f: { dir: string; origin: RemoteOrigin },
  known: readonly Record<string, unknown>[],
): void {
  const other = known.find(
    (e) => (e.received_from as { server?: unknown } | undefined)?.server !== f.origin.server,
  );
  if (basename(f.dir) !== f.origin.conversation_id || known.length === 0 || other) {
    throw new Error(
      `${f.dir}/${REMOTE_ORIGIN_FILE} names ${f.origin.server}, which is not the server its log ` +
        `received the conversation from; nothing was sent.`,
    );
  }
}
