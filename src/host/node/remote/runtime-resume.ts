// `logbook run --runtime-api URL --store DIR ["task"]`: a conversation a runtime API's server ran
// goes on without its session key in the environment. Its folder keeps only the runtime API's URL
// and session id (remote.json); the runtime API is asked again (`GET /sessions/{id}`, its key from
// LOGBOOK_RUNTIME_API_KEY) for the server's URL and session key, and a paused runtime is resumed
// (`POST /resume`) and waited for. The key stays in memory, as for the first run.
import { UsageError } from '../cli/exit-codes';
import type { CliIo } from '../cli/io';
import { type AgentServerTarget, normalizeServerUrl, RemoteError } from './agent-server-api';
import { readRemoteOrigin, type RemoteOrigin } from './remote-origin';
import { resumeRuntime, type RuntimeApi, runtimeSession, waitForRuntime } from './runtime-api';

/** The folder's origin, when a runtime API named `apiUrl` started its server. */
export function runtimeOriginOf(dir: string, apiUrl: string, flag: string): RemoteOrigin {
  const origin = readRemoteOrigin(dir);
  if (!origin)
    throw new UsageError(`logbook run ${flag}: ${dir} holds no remote conversation (no remote.json).`);
  if (!origin.runtime)
    throw new UsageError(
      `logbook run ${flag}: the conversation in ${dir} runs on ${origin.server}, which no runtime API started; use --remote ${origin.server}.`,
    );
  if (origin.runtime.api_url !== apiUrl)
    throw new UsageError(
      `logbook run ${flag}: the conversation in ${dir} was started by the runtime API at ${origin.runtime.api_url}, not ${apiUrl}.`,
    );
  return origin;
}

/**
 * The server of the conversation, found again through its runtime API: resumed when paused, ready,
 * at the URL the folder's log received its events from, with the session key the API answers.
 */
export async function findRuntimeServer(
  io: CliIo,
  api: RuntimeApi,
  origin: RemoteOrigin,
  timeoutMs: number,
): Promise<AgentServerTarget> {
  const sessionId = origin.runtime!.session_id;
  let session = await runtimeSession(api, sessionId);
  if (session.status === 'paused') {
    const runtimeId = session.runtimeId || origin.runtime!.runtime_id;
    io.err(`runtime ${runtimeId} is paused; resuming it on ${api.url}`);
    await resumeRuntime(api, runtimeId);
  } else if (session.status !== 'running' && session.status !== 'ready') {
    throw new RemoteError(
      `the runtime for session ${sessionId} is ${session.status} on ${api.url}; the conversation cannot go on there.`,
    );
  }
  await waitForRuntime(api, sessionId, origin.server, timeoutMs);
  // The key (and URL) as the API answers them once the runtime is up again.
  session = await runtimeSession(api, sessionId);
  let url: string;
  try {
    url = normalizeServerUrl(session.url);
  } catch {
    throw new RemoteError('the runtime API answered a server URL Logbook cannot use.');
  }
  if (url !== origin.server)
    throw new RemoteError(
      `the runtime API now places session ${sessionId} at ${url}, not at ${origin.server}, where the log received the conversation from; nothing was sent.`,
    );
  if (!session.sessionApiKey)
    throw new RemoteError(`the runtime API gave no session key for session ${sessionId}.`);
  io.err(`runtime ${session.runtimeId || origin.runtime!.runtime_id} ready at ${url}`);
  return { url, key: session.sessionApiKey };
}
