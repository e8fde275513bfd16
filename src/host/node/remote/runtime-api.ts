// A runtime API (a cluster's front door) starts an agent-server per session: the same requests
// the OpenHands SDK's remote workspace makes, its key in the X-API-Key header. The answer's session
// key is the server's own; it is held by the caller in memory and never printed or recorded.
import { printableLine } from '../../../core/text/printable';
import { RemoteError } from './agent-server-api';

export const RUNTIME_KEY_VARIABLE = 'LOGBOOK_RUNTIME_API_KEY';
/** The agent-server image the SDK starts when none is named. */
export const DEFAULT_RUNTIME_IMAGE = 'ghcr.io/openhands/agent-server:latest-python';

export interface RuntimeApi {
  /** The runtime API's base URL, without a trailing slash. */
  url: string;
  key: string;
}

export interface StartedRuntime {
  runtimeId: string;
  /** The agent-server's URL. */
  url: string;
  sessionApiKey: string;
}

function headers(api: RuntimeApi): Record<string, string> {
  return { 'X-API-Key': api.key, 'Content-Type': 'application/json' };
}

async function request(api: RuntimeApi, method: string, path: string, body?: unknown): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(`${api.url}${path}`, {
      method,
      headers: headers(api),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
    throw new RemoteError(`the runtime API at ${api.url} cannot be reached (${cause}).`);
  }
  const text = await res.text();
  if (res.status === 401 || res.status === 403) {
    throw new RemoteError(
      `the runtime API at ${api.url} refused the key (HTTP ${res.status}): check ${RUNTIME_KEY_VARIABLE}.`,
      res.status,
    );
  }
  if (!res.ok) {
    // The API's own words, escaped and cut short: it may be any page a proxy sends.
    const said = printableLine(text.slice(0, 300));
    throw new RemoteError(
      `the runtime API answered ${method} ${path} with HTTP ${res.status}: ${said}`,
      res.status,
    );
  }
  try {
    return text ? (JSON.parse(text) as unknown) : {};
  } catch {
    throw new RemoteError(`the runtime API answered ${method} ${path} with something other than JSON.`);
  }
}

/** The SDK's start request: the server's command, its user and group, a pull policy. */
export function startRuntimeBody(image: string, sessionId: string): Record<string, unknown> {
  return {
    image,
    command: '/agent-server/.venv/bin/python -m openhands.agent_server --port 60000',
    working_dir: '/',
    environment: {},
    session_id: sessionId,
    run_as_user: 10001,
    fs_group: 10001,
    image_pull_policy: 'IfNotPresent',
  };
}

export async function startRuntime(
  api: RuntimeApi,
  image: string,
  sessionId: string,
): Promise<StartedRuntime> {
  const v = (await request(api, 'POST', '/start', startRuntimeBody(image, sessionId))) as Record<
    string,
    unknown
  >;
  const runtimeId = typeof v.runtime_id === 'string' ? v.runtime_id : typeof v.id === 'string' ? v.id : '';
  const url = typeof v.url === 'string' ? v.url : '';
  const sessionApiKey = typeof v.session_api_key === 'string' ? v.session_api_key : '';
  if (!runtimeId || !url || !sessionApiKey) {
    throw new RemoteError(
      'the runtime API started no runtime: its answer lacks runtime_id, url or session_api_key.',
    );
  }
  return { runtimeId, url, sessionApiKey };
}

/** What the runtime API says of a session (`GET /sessions/{id}`, the SDK's check for a runtime). */
export interface RuntimeSession {
  status: string;
  runtimeId: string;
  url: string;
  /** Absent when the API does not give the key again. */
  sessionApiKey: string | undefined;
}

export async function runtimeSession(api: RuntimeApi, sessionId: string): Promise<RuntimeSession> {
  const v = (await request(api, 'GET', `/sessions/${encodeURIComponent(sessionId)}`)) as Record<
    string,
    unknown
  >;
  const str = (x: unknown) => (typeof x === 'string' ? x : '');
  return {
    status: printableLine(str(v.status).toLowerCase() || str(v.pod_status).toLowerCase() || 'no status'),
    runtimeId: str(v.runtime_id) || str(v.id),
    url: str(v.url),
    sessionApiKey: str(v.session_api_key) || undefined,
  };
}

export async function resumeRuntime(api: RuntimeApi, runtimeId: string): Promise<void> {
  await request(api, 'POST', '/resume', { runtime_id: runtimeId });
}

/** Statuses after which waiting longer does not help. */
const FAILED = new Set(['failed', 'unknown', 'crashloopbackoff', 'stopped', 'error']);

/**
 * Waits until the session's pod is ready and the server answers /health (the SDK's test), or
 * until `timeoutMs` has passed.
 */
export async function waitForRuntime(
  api: RuntimeApi,
  sessionId: string,
  serverUrl: string,
  timeoutMs: number,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  let last = 'no answer yet';
  let pause = 500;
  for (;;) {
    const v = (await request(api, 'GET', `/sessions/${encodeURIComponent(sessionId)}`)) as Record<
      string,
      unknown
    >;
    const pod = typeof v.pod_status === 'string' ? v.pod_status.toLowerCase() : '';
    const status = typeof v.status === 'string' ? v.status.toLowerCase() : '';
    last = printableLine(pod || status || 'no status');
    if (FAILED.has(pod) || FAILED.has(status)) {
      throw new RemoteError(`the runtime for session ${sessionId} failed on the cluster (status: ${last}).`);
    }
    if (pod === 'ready' && (await healthy(serverUrl))) return;
    if (Date.now() >= end) {
      throw new RemoteError(
        `the runtime for session ${sessionId} was not ready after ${Math.round(timeoutMs / 1000)} s ` +
          `(last status: ${last}); it may still start: pause it with POST ${api.url}/pause.`,
      );
    }
    await new Promise((r) => setTimeout(r, Math.min(pause, Math.max(0, end - Date.now()))));
    pause = Math.min(pause * 2, 5_000);
  }
}

async function healthy(serverUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${serverUrl}/health`, { signal: AbortSignal.timeout(5_000) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

export async function pauseRuntime(api: RuntimeApi, runtimeId: string): Promise<void> {
  await request(api, 'POST', '/pause', { runtime_id: runtimeId });
}
