// The scripted LLM: an HTTP server on 127.0.0.1 that speaks the OpenAI Chat Completions protocol and
// answers from a scenario, recording every request so tests can assert what the client sent.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type ChatRequestView, toRequestView } from './chat-request';
import { deliverReply } from './deliver-reply';
import { BodyTooLargeError, parseBody, readBodyText, sendJson } from './http-io';
import { errorBody, invalidRequest } from './openai-errors';
import { loadScenarioFile, parseScenario, type Reply, type Scenario, ScenarioFormatError } from './scenario';
import { ScriptCursor } from './script-cursor';
import { validateChatRequest } from './validate-messages';

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. "/v1/chat/completions". */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON; the raw text if the body was not JSON; undefined if there was none. */
  body: unknown;
  /** Milliseconds since the epoch, when the request arrived. */
  timestamp: number;
}

export interface ScriptedLlm {
  /** E.g. "http://127.0.0.1:PORT/v1", ready for `new OpenAI({ baseURL })`. */
  readonly baseUrl: string;
  readonly port: number;
  /** Every /v1 request so far, oldest first (control endpoints under /__ are not recorded). */
  readonly requests: RecordedRequest[];
  /** Bodies of the POST /v1/chat/completions requests, oldest first. */
  completionBodies(): Record<string, unknown>[];
  /** Replaces the scenario and restarts it from its first turn; the request log is kept. */
  setScenario(scenario: Scenario): void;
  remainingTurns(): number;
  /** Lets every reply held by `holdUntilReleased: name` go on, now and from now on. */
  release(name: string): void;
  /** Stops listening and destroys open connections, streams in progress included. */
  close(): Promise<void>;
}

export interface StartScriptedLlmOptions {
  scenario?: Scenario;
  /** Path of a scenario JSON file; use either this or `scenario`. */
  scenarioFile?: string;
  /** 0 or absent picks a free port. */
  port?: number;
  /**
   * Answers every chat request by reading it, instead of playing the scenario's turns (the
   * scenario still names the models); for a model that follows the conversation, like the demo.
   */
  respond?: (request: ChatRequestView) => Reply;
}

const EMPTY_SCENARIO: Scenario = { name: 'empty', turns: [] };
const DEFAULT_MODELS = ['scripted-model'];
const CHAT_COMPLETIONS_PATH = '/v1/chat/completions';

export async function startScriptedLlm(opts: StartScriptedLlmOptions = {}): Promise<ScriptedLlm> {
  if (opts.scenario && opts.scenarioFile)
    throw new Error('startScriptedLlm: pass either scenario or scenarioFile');
  const scenario = opts.scenarioFile
    ? await loadScenarioFile(opts.scenarioFile)
    : parseScenario(opts.scenario ?? EMPTY_SCENARIO);
  const server = new ScriptedLlmServer(scenario, opts.respond);
  await server.listen(opts.port ?? 0);
  return server;
}

class ScriptedLlmServer implements ScriptedLlm {
  readonly requests: RecordedRequest[] = [];
  private cursor: ScriptCursor;
  private callIdCounter = 0;
  private readonly closing = new AbortController();
  private readonly http = createServer((req, res) => void this.handle(req, res));
  private address: AddressInfo | undefined;
  private readonly gates = new Map<string, { opened: Promise<void>; open: () => void }>();

  constructor(
    scenario: Scenario,
    private readonly respond?: (request: ChatRequestView) => Reply,
  ) {
    this.cursor = new ScriptCursor(scenario);
  }

  get port(): number {
    if (!this.address) throw new Error('scripted LLM server is not listening');
    return this.address.port;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(port, '127.0.0.1', () => {
        this.http.off('error', reject);
        this.address = this.http.address() as AddressInfo;
        resolve();
      });
    });
  }

  completionBodies(): Record<string, unknown>[] {
    return this.requests
      .filter((r) => r.method === 'POST' && r.path === CHAT_COMPLETIONS_PATH)
      .map((r) => r.body as Record<string, unknown>);
  }

  setScenario(scenario: Scenario): void {
    this.cursor = new ScriptCursor(parseScenario(scenario));
  }

  remainingTurns(): number {
    return this.cursor.remainingTurns();
  }

  release(name: string): void {
    this.gate(name).open();
  }

  private gate(name: string): { opened: Promise<void>; open: () => void } {
    let gate = this.gates.get(name);
    if (!gate) {
      let open = () => {};
      const opened = new Promise<void>((resolve) => (open = resolve));
      gate = { opened, open };
      this.gates.set(name, gate);
    }
    return gate;
  }

  close(): Promise<void> {
    this.closing.abort();
    return new Promise((resolve) => {
      this.http.close(() => resolve());
      // Keep-alive and mid-stream connections would otherwise hold close() open.
      this.http.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestDone = new AbortController();
    res.once('close', () => requestDone.abort());
    const signal = AbortSignal.any([this.closing.signal, requestDone.signal]);
    try {
      await this.route(req, res, signal);
    } catch (err) {
      if (signal.aborted) {
        res.destroy();
      } else if (err instanceof BodyTooLargeError) {
        sendJson(res, 413, errorBody(err.message, 'invalid_request_error'));
      } else {
        // A bug in the fixture itself: say so plainly rather than pretend to be the model.
        sendJson(res, 500, errorBody(`scripted LLM server failed: ${(err as Error).stack}`, 'server_error'));
      }
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const arrived = Date.now();
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const pathname = path.split('?')[0];
    const parsed = parseBody(await readBodyText(req));
    if (!pathname?.startsWith('/__')) {
      this.requests.push({ method, path, headers: req.headers, body: parsed.value, timestamp: arrived });
    }

    const route = `${method} ${pathname}`;
    switch (route) {
      case `POST ${CHAT_COMPLETIONS_PATH}`:
        return this.chatCompletion(res, parsed, signal);
      case 'GET /v1/models':
        return sendJson(res, 200, this.modelList());
      case 'GET /__requests':
        return sendJson(res, 200, this.requests);
      case 'DELETE /__requests':
        this.requests.length = 0;
        return sendJson(res, 200, { cleared: true });
      case 'GET /__scenario':
        return sendJson(res, 200, { name: this.cursor.scenario.name, remainingTurns: this.remainingTurns() });
      case 'POST /__scenario':
        return this.loadScenario(res, parsed);
      case 'POST /__release': {
        const name = (parsed.value as { name?: unknown } | undefined)?.name;
        if (typeof name !== 'string')
          return sendJson(res, 400, errorBody('name must be a string', 'invalid_request_error'));
        this.release(name);
        return sendJson(res, 200, { released: name });
      }
      default: {
        const known = [
          CHAT_COMPLETIONS_PATH,
          '/v1/models',
          '/__requests',
          '/__scenario',
          '/__release',
        ].includes(pathname ?? '');
        const message = known
          ? `Method ${method} is not allowed on ${pathname}.`
          : `Unknown request URL: ${method} ${pathname}. Please check the URL for typos.`;
        return sendJson(
          res,
          known ? 405 : 404,
          errorBody(message, 'invalid_request_error', null, 'unknown_url'),
        );
      }
    }
  }

  private async chatCompletion(
    res: ServerResponse,
    parsed: ReturnType<typeof parseBody>,
    signal: AbortSignal,
  ): Promise<void> {
    const headers = { 'x-request-id': `req_${randomBytes(8).toString('hex')}` };
    if (!parsed.json) {
      const error = invalidRequest(
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP " +
          'library correctly. The OpenAI API expects a JSON payload.)',
      );
      return sendJson(res, error.status, error.body, headers);
    }
    const [problem] = validateChatRequest(parsed.value);
    if (problem) {
      const error = invalidRequest(problem.message, problem.param, problem.code);
      return sendJson(res, error.status, error.body, headers);
    }
    const request = toRequestView(parsed.value as Record<string, unknown>);
    if (this.respond) {
      return deliverReply(res, request, this.respond(request), undefined, {
        signal,
        headers,
        nextCallId: () => `call_scripted_${++this.callIdCounter}`,
        released: (name) => this.gate(name).opened,
      });
    }
    const step = this.cursor.next(request);
    if (step.kind === 'mismatch' || step.kind === 'exhausted') {
      const error = invalidRequest(
        step.message,
        null,
        step.kind === 'mismatch' ? 'scenario_mismatch' : 'scenario_exhausted',
      );
      return sendJson(res, error.status, error.body, headers);
    }
    const reply = step.kind === 'fallback' ? step.reply : (step.turn.reply ?? {});
    const fault = step.kind === 'turn' ? step.turn.fault : undefined;
    await deliverReply(res, request, reply, fault, {
      signal,
      headers,
      nextCallId: () => `call_scripted_${++this.callIdCounter}`,
      released: (name) => this.gate(name).opened,
    });
  }

  private loadScenario(res: ServerResponse, parsed: ReturnType<typeof parseBody>): void {
    try {
      const scenario = parseScenario(parsed.value, 'POST /__scenario');
      this.cursor = new ScriptCursor(scenario);
      sendJson(res, 200, { name: scenario.name, turns: scenario.turns.length });
    } catch (err) {
      if (!(err instanceof ScenarioFormatError)) throw err;
      sendJson(res, 400, errorBody(err.message, 'invalid_request_error', null, 'invalid_scenario'));
    }
  }

  private modelList(): object {
    const models = this.cursor.scenario.models ?? DEFAULT_MODELS;
    return {
      object: 'list',
      data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'scripted-llm' })),
    };
  }
}
