// Which server a remote conversation's commands (approve, reject, diff, apply, fork) reach, and
// with which key: the runtime API that started it, asked again for the server's URL and session
// key (LOGBOOK_RUNTIME_API_KEY, and --runtime-api naming the API remote.json records: remote.json is
// not signed, so the runtime key goes only to an API the user names), else LOGBOOK_REMOTE_KEY.
// The check that the server answering is the one the log received from is the caller's
// (assertFromServer), made before the thunk is called; findRuntimeServer checks the API's answer.
import { UsageError } from '../cli/exit-codes';
import type { CliIo } from '../cli/io';
import { type AgentServerTarget, normalizeServerUrl } from './agent-server-api';
import { REMOTE_KEY_VARIABLE, type RemoteOrigin } from './remote-origin';
import { RUNTIME_KEY_VARIABLE } from './runtime-api';
import { findRuntimeServer } from './runtime-resume';

/** How long a paused runtime may take to come back (as for `run --runtime-api`). */
const RUNTIME_TIMEOUT_MS = 300_000;

/**
 * Checks now what the command needs to reach the server (so a missing key fails before anything
 * is opened or sent) and returns how to find it, called once the log vouches for the server.
 */
export function remoteTargetOf(
  io: CliIo,
  command: string,
  origin: RemoteOrigin,
  runtimeApi: string | undefined,
): () => Promise<AgentServerTarget> {
  if (runtimeApi !== undefined) {
    let url: string;
    try {
      url = normalizeServerUrl(runtimeApi);
    } catch (err) {
      throw new UsageError(
        `logbook ${command} --runtime-api: ${(err as Error).message.replace(REMOTE_KEY_VARIABLE, RUNTIME_KEY_VARIABLE)}`,
      );
    }
    if (!origin.runtime)
      throw new UsageError(
        `logbook ${command}: the conversation runs on ${origin.server}, which no runtime API started; set ${REMOTE_KEY_VARIABLE} instead of --runtime-api.`,
      );
    if (origin.runtime.api_url !== url)
      throw new UsageError(
        `logbook ${command}: the conversation was started by the runtime API at ${origin.runtime.api_url}, not ${url}; nothing was sent.`,
      );
    const key = io.env[RUNTIME_KEY_VARIABLE];
    if (!key)
      throw new UsageError(
        `logbook ${command} --runtime-api: set ${RUNTIME_KEY_VARIABLE} to the runtime API's key.`,
      );
    return () => findRuntimeServer(io, { url, key }, origin, RUNTIME_TIMEOUT_MS);
  }
  const key = io.env[REMOTE_KEY_VARIABLE];
  if (key) return () => Promise.resolve({ url: origin.server, key });
  const viaRuntime = origin.runtime
    ? `, or ${RUNTIME_KEY_VARIABLE} and --runtime-api ${origin.runtime.api_url} (the runtime API that started it)`
    : '';
  throw new UsageError(
    `logbook ${command}: the conversation runs on ${origin.server}; set ${REMOTE_KEY_VARIABLE} to its session API key${viaRuntime}.`,
  );
}
