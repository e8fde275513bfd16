// The OpenHands agent-server's REST API, as much of it as a remote run uses: start a conversation,
// answer a held action, page through events. Every request carries the session key; a refusal
// becomes an error that says what to do.
import { printableLine } from '../../../core/text/printable';

export interface AgentServerTarget {
  /** The server's base URL, without a trailing slash. */
  url: string;
  key: string;
}

export class RemoteError extends Error {
  override name = 'RemoteError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The model the server's agent calls: Logbook's own endpoint and model. */
export interface RemoteModel {
  model: string;
  baseUrl: string | undefined;
  apiKey: string | undefined;
}

export interface StartRequest {
  workingDir: string;
  /**
   * The first message, run at once. Without it the conversation waits, idle, for a message sent
   * once its event stream is open, so that none of its run (the reply's streamed text included) is
   * missed.
   */
  task?: string;
  /** Logbook's confirmation mode, mapped onto the server's policy. */
  confirmation: string;
  maxIterations?: number;
  model: RemoteModel;
}

export function normalizeServerUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new RemoteError(`"${raw}" is not a URL (expected e.g. http://127.0.0.1:8000).`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new RemoteError(`the agent-server URL must be http: or https:, got ${u.protocol}`);
  }
  if (u.username || u.password) {
    throw new RemoteError('give the session key in LOGBOOK_REMOTE_KEY, not in the URL.');
  }
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

/**
 * Logbook's confirmation modes as the server's policies: `never` asks for nothing; every other mode
 * holds every action (AlwaysConfirm), and Logbook's own rules decide which to ask the user about
 * (remote-gate.ts). The server's ConfirmRisky would go by the risk its model gives each action
 * itself: a model that calls a write LOW would pass what Logbook's `risky` asks about.
 */
export function confirmationPolicy(mode: string): Record<string, unknown> {
  if (mode === 'never' || mode === 'auto') return { kind: 'NeverConfirm' };
  return { kind: 'AlwaysConfirm' };
}

export function startConversationBody(req: StartRequest): Record<string, unknown> {
  const llm: Record<string, unknown> = {
    // The server's model names carry their provider; Logbook speaks the OpenAI protocol.
    model: req.model.model.includes('/') ? req.model.model : `openai/${req.model.model}`,
    ...(req.model.baseUrl ? { base_url: req.model.baseUrl } : {}),
    ...(req.model.apiKey ? { api_key: req.model.apiKey } : {}),
    // The server then sends the reply's text as it comes (StreamingDeltaEvent), for the chat to show.
    stream: true,
  };
  return {
    agent: { kind: 'Agent', llm, tools: [{ name: 'terminal' }, { name: 'file_editor' }] },
    workspace: { working_dir: req.workingDir },
    confirmation_policy: confirmationPolicy(req.confirmation),
    ...(req.task !== undefined
      ? { initial_message: { role: 'user', content: [{ type: 'text', text: req.task }], run: true } }
      : {}),
    // Logbook keeps its own titles: no model call the user did not ask for.
    autotitle: false,
    ...(req.maxIterations ? { max_iterations: req.maxIterations } : {}),
  };
}

/** One request to the server with the session key; a refusal or a failure becomes a RemoteError. */
async function request(
  target: AgentServerTarget,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<Buffer> {
  let res: Response;
  try {
    res = await fetch(`${target.url}${path}`, {
      method,
      headers: {
        'X-Session-API-Key': target.key,
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new RemoteError(
      `the agent-server at ${target.url} cannot be reached (${cause?.code ?? cause?.message ?? (err as Error).message}).`,
    );
  }
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status === 401 || res.status === 403) {
    throw new RemoteError(
      `the agent-server at ${target.url} refused the session key (HTTP ${res.status}): check LOGBOOK_REMOTE_KEY.`,
      res.status,
    );
  }
  if (!res.ok) {
    throw new RemoteError(
      `the agent-server answered ${method} ${path} with HTTP ${res.status}: ${bytes.toString('utf8').slice(0, 500)}`,
      res.status,
    );
  }
  return bytes;
}

/** A JSON request (see request). */
export async function call(
  target: AgentServerTarget,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<unknown> {
  const text = (await request(target, method, path, body)).toString('utf8');
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    throw new RemoteError(`the agent-server answered ${method} ${path} with something that is not JSON.`);
  }
}

/** A file's exact bytes on the server's machine (`/api/file/download`, an absolute path there). */
export function downloadFile(target: AgentServerTarget, path: string): Promise<Buffer> {
  return request(target, 'GET', `/api/file/download?${new URLSearchParams({ path })}`);
}

/** The working folder's change against `baseRef` as a git patch (`/api/file/archive`, git-delta). */
export async function changePatch(
  target: AgentServerTarget,
  workingDir: string,
  baseRef: string,
): Promise<string> {
  const q = new URLSearchParams({
    path: workingDir,
    format: 'git-delta',
    base_ref: baseRef,
    use_default_excludes: 'false',
  });
  return (await request(target, 'GET', `/api/file/archive?${q}`)).toString('utf8');
}

export async function startConversation(target: AgentServerTarget, req: StartRequest): Promise<string> {
  const info = (await call(target, 'POST', '/api/conversations', startConversationBody(req))) as {
    id?: unknown;
  } | null;
  if (typeof info?.id !== 'string')
    throw new RemoteError('the agent-server started no conversation (no id).');
  // The id names the local log's folder: a path ("../x", "a/b") would put it elsewhere.
  if (!/^[A-Za-z0-9][\w-]{0,127}$/.test(info.id))
    throw new RemoteError(
      `the agent-server answered "${printableLine(info.id.slice(0, 80))}", which is not a conversation id.`,
    );
  return info.id;
}

export async function respondToConfirmation(
  target: AgentServerTarget,
  conversationId: string,
  answer: { accept: boolean; reason?: string },
): Promise<void> {
  await call(target, 'POST', `/api/conversations/${conversationId}/events/respond_to_confirmation`, {
    accept: answer.accept,
    ...(answer.reason ? { reason: answer.reason } : {}),
  });
}

/** Sets the conversation's confirmation policy (Logbook's mode, as confirmationPolicy maps it). */
export async function setConfirmationPolicy(
  target: AgentServerTarget,
  conversationId: string,
  mode: string,
): Promise<void> {
  await call(target, 'POST', `/api/conversations/${conversationId}/confirmation_policy`, {
    policy: confirmationPolicy(mode),
  });
}

/** Runs the conversation on (after a rejection the server stops; Logbook's agent goes on). */
export async function runConversation(target: AgentServerTarget, conversationId: string): Promise<void> {
  await call(target, 'POST', `/api/conversations/${conversationId}/run`);
}

/** Pauses the conversation: the server stops after the step it is in, and records a PauseEvent. */
export async function pauseConversation(target: AgentServerTarget, conversationId: string): Promise<void> {
  await call(target, 'POST', `/api/conversations/${conversationId}/pause`);
}

/** Stops at once: the server cancels the model call in flight (a pause waits for it) and pauses. */
export async function interruptConversation(
  target: AgentServerTarget,
  conversationId: string,
): Promise<void> {
  await call(target, 'POST', `/api/conversations/${conversationId}/interrupt`);
}

/** Sends the user's next message, and runs the conversation on it. */
export async function sendUserMessage(
  target: AgentServerTarget,
  conversationId: string,
  text: string,
): Promise<void> {
  await call(target, 'POST', `/api/conversations/${conversationId}/events`, {
    role: 'user',
    content: [{ type: 'text', text }],
    run: true,
  });
}

/** The conversation's execution status as the server holds it now (`GET /api/conversations/{id}`). */
export async function conversationStatus(target: AgentServerTarget, conversationId: string): Promise<string> {
  const info = (await call(target, 'GET', `/api/conversations/${conversationId}`)) as {
    execution_status?: unknown;
  } | null;
  if (typeof info?.execution_status !== 'string')
    throw new RemoteError(`the agent-server at ${target.url} did not say the conversation's status.`);
  return info.execution_status;
}

/** Every event of the conversation, oldest first, a page at a time. */
export async function allEvents(
  target: AgentServerTarget,
  conversationId: string,
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let page: string | null = null;
  do {
    const q = new URLSearchParams({ limit: '100', ...(page ? { page_id: page } : {}) });
    const r = (await call(target, 'GET', `/api/conversations/${conversationId}/events/search?${q}`)) as {
      items?: Record<string, unknown>[];
      next_page_id?: string | null;
    };
    out.push(...(r.items ?? []));
    page = r.next_page_id ?? null;
  } while (page);
  return out;
}

export function eventsSocketUrl(
  target: AgentServerTarget,
  conversationId: string,
  afterTimestamp?: string,
): string {
  const base = target.url.replace(/^http/, 'ws');
  const q = afterTimestamp
    ? `?resend_mode=since&after_timestamp=${encodeURIComponent(afterTimestamp)}`
    : '?resend_mode=all';
  return `${base}/sockets/events/${conversationId}${q}`;
}
