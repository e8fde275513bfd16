// `logbook run --runtime-api URL "task"`: asks a runtime API (a cluster) to start an agent-server
// for a new session, waits until it is ready, then runs the task there as `run --remote` does.
// The runtime API's key comes from LOGBOOK_RUNTIME_API_KEY; the server's session key from its
// answer, held in memory only. The runtime keeps running afterwards unless --pause-runtime.
import { randomUUID } from 'node:crypto';
import { UsageError } from '../cli/exit-codes';
import type { CliIo } from '../cli/io';
import { normalizeServerUrl, RemoteError } from './agent-server-api';
import { continueRemote, type RemoteCommandInput, runTaskOn } from './remote-command';
import { findRuntimeServer, runtimeOriginOf } from './runtime-resume';
import {
  DEFAULT_RUNTIME_IMAGE,
  pauseRuntime,
  type RuntimeApi,
  RUNTIME_KEY_VARIABLE,
  startRuntime,
  waitForRuntime,
} from './runtime-api';

export interface RuntimeCommandInput extends RemoteCommandInput {
  values: RemoteCommandInput['values'] & {
    'runtime-api'?: string;
    image?: string;
    'runtime-timeout'?: string;
    'pause-runtime'?: boolean;
  };
}

const FLAG = '--runtime-api';
/** How long the cluster may take to start a server (the SDK waits as long). */
const DEFAULT_TIMEOUT_S = 300;

function usage(message: string): UsageError {
  return new UsageError(`logbook run ${FLAG}: ${message}`);
}

export async function runOnRuntime(io: CliIo, input: RuntimeCommandInput): Promise<number> {
  const { values } = input;
  let apiUrl: string;
  try {
    apiUrl = normalizeServerUrl(values['runtime-api'] ?? '');
  } catch (err) {
    throw usage((err as Error).message.replace('LOGBOOK_REMOTE_KEY', RUNTIME_KEY_VARIABLE));
  }
  const key = io.env[RUNTIME_KEY_VARIABLE];
  if (!key) throw usage(`set ${RUNTIME_KEY_VARIABLE} to the runtime API's key.`);
  if (values.remote !== undefined) throw usage('finds its server itself; it takes no --remote.');
  const seconds =
    values['runtime-timeout'] === undefined ? DEFAULT_TIMEOUT_S : Number(values['runtime-timeout']);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw usage(`--runtime-timeout must be a number of seconds, got "${values['runtime-timeout']}".`);
  if (input.storeDir !== undefined) return continueOnRuntime(io, input, { url: apiUrl, key }, seconds);
  if (input.task === undefined || !input.task.trim()) throw usage('a task is required.');
  const image = values.image ?? DEFAULT_RUNTIME_IMAGE;
  if (!image.trim()) throw usage('--image is empty.');

  const api: RuntimeApi = { url: apiUrl, key };
  const sessionId = `logbook-${randomUUID()}`;
  let runtimeId: string | undefined;
  try {
    io.err(`asking ${apiUrl} for a runtime (${image}, session ${sessionId})`);
    const started = await startRuntime(api, image, sessionId);
    runtimeId = started.runtimeId;
    let serverUrl: string;
    try {
      serverUrl = normalizeServerUrl(started.url);
    } catch {
      throw new RemoteError(
        'the runtime API answered a server URL Logbook cannot use (an http: or https: URL without credentials).',
      );
    }
    await waitForRuntime(api, sessionId, serverUrl, seconds * 1000);
    io.err(`runtime ${runtimeId} ready at ${serverUrl}`);
    return await runTaskOn(
      io,
      input,
      input.task,
      {
        target: { url: serverUrl, key: started.sessionApiKey },
        runtime: { api_url: apiUrl, session_id: sessionId, runtime_id: runtimeId },
      },
      FLAG,
    );
  } catch (err) {
    if (err instanceof RemoteError) throw new Error(`logbook run ${FLAG}: ${err.message}`);
    throw err;
  } finally {
    if (runtimeId !== undefined) await leave(io, api, runtimeId, values['pause-runtime'] === true);
  }
}

/**
 * `--store DIR`: the conversation its server ran goes on (or takes the task), the server found
 * again through the runtime API; a paused runtime is resumed first.
 */
async function continueOnRuntime(
  io: CliIo,
  input: RuntimeCommandInput,
  api: RuntimeApi,
  seconds: number,
): Promise<number> {
  if (input.values.image !== undefined) throw usage('--image starts a new server; it takes no --store.');
  const origin = runtimeOriginOf(input.storeDir!, api.url, FLAG);
  try {
    const target = await findRuntimeServer(io, api, origin, seconds * 1000);
    return await continueRemote(io, input, origin.server, target);
  } catch (err) {
    if (err instanceof RemoteError) throw new Error(`logbook run ${FLAG}: ${err.message}`);
    throw err;
  } finally {
    await leave(io, api, origin.runtime!.runtime_id, input.values['pause-runtime'] === true);
  }
}

/** Pauses the runtime when asked to; otherwise says it still runs, and how to pause it. */
async function leave(io: CliIo, api: RuntimeApi, runtimeId: string, pause: boolean): Promise<void> {
  if (pause) {
    try {
      await pauseRuntime(api, runtimeId);
      io.err(`runtime ${runtimeId} paused on ${api.url}.`);
      return;
    } catch (err) {
      io.err(`logbook run ${FLAG}: could not pause runtime ${runtimeId}: ${(err as Error).message}`);
    }
  }
  io.err(
    `runtime ${runtimeId} keeps running on ${api.url}; pause it with POST ${api.url}/pause ` +
      `{"runtime_id":"${runtimeId}"} and the X-API-Key header (or run with --pause-runtime).`,
  );
}
