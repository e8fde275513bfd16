// One running MCP server, on the official SDK: a child process over stdio, or a URL over Streamable
// HTTP (falling back to the older HTTP+SSE transport when the server does not speak it). The
// connection reports its own end (a crash, a closed stream) once, with what the server last said
// on stderr, so the agent can drop its tools and say why.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpCallOptions, McpServerPort, McpToolInfo } from '../../../core/mcp';
import { isStdio, type McpServerConfig } from './mcp-config';
import type { StdioLaunch } from './server-sandbox';

export interface ConnectOptions {
  /** Environment of a stdio server: the scrubbed agent environment plus the entry's own `env`. */
  env: Record<string, string>;
  /** Headers of an HTTP server, references filled in. */
  headers: Record<string, string>;
  /** Working folder of a stdio server without its own `cwd`. */
  cwd: string;
  /** What a stdio server spawns instead of its entry's command and `env` (the sandbox's command line). */
  launch?: StdioLaunch;
  /** Longest the start (spawn/connect and the MCP handshake) may take. */
  startTimeoutMs: number;
  /** Called once when the connection ends without `close` (a crash, a dropped stream). */
  onLost: (reason: string) => void;
}

const CLIENT_INFO = { name: 'logbook', version: '0.1.0' };
/** Most pages of `tools/list` read: a server listing more is misbehaving. */
const MAX_TOOL_PAGES = 20;
const MAX_RESOURCE_PAGES = 3;

/** A prompt a server offers: its required arguments say whether it can be sent as it is. */
export interface McpPromptInfo {
  name: string;
  description?: string;
  required: string[];
}

/** A resource a server offers, as a mention lists it. */
export interface McpResourceInfo {
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
}
/** The tail of a server's stderr kept for error messages. */
const STDERR_TAIL = 2_000;
const DEFAULT_CALL_TIMEOUT_MS = 60_000;

export class McpConnection implements McpServerPort {
  private closing = false;
  private stderrTail = '';
  private lost = false;
  private connected = false;
  /** The last error the transport reported (an answer past the stdio buffer, a broken stream). */
  private transportError: string | undefined;

  private constructor(
    readonly name: string,
    private readonly client: Client,
    private readonly callTimeoutMs: number,
  ) {}

  static async connect(name: string, config: McpServerConfig, opts: ConnectOptions): Promise<McpConnection> {
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    const conn = new McpConnection(name, client, (config.timeout ?? DEFAULT_CALL_TIMEOUT_MS / 1000) * 1000);
    try {
      if (isStdio(config)) {
        const how = opts.launch ?? { command: config.command, args: config.args ?? [], env: opts.env };
        const transport = new StdioClientTransport({
          command: how.command,
          args: how.args,
          env: how.env,
          cwd: config.cwd ?? opts.cwd,
          stderr: 'pipe',
        });
        transport.stderr?.on('data', (chunk: Buffer) => conn.keepStderr(chunk.toString('utf8')));
        await conn.start(transport, opts);
      } else {
        await conn.startHttp(config.url, config.type, opts);
      }
    } catch (err) {
      conn.closing = true;
      await client.close().catch(() => undefined);
      throw new Error(conn.withStderr(startError(err, opts.startTimeoutMs)));
    }
    return conn;
  }

  private async startHttp(url: string, type: string | undefined, opts: ConnectOptions): Promise<void> {
    const requestInit = { headers: opts.headers };
    if (type !== 'sse') {
      try {
        await this.start(new StreamableHTTPClientTransport(new URL(url), { requestInit }), opts);
        return;
      } catch (err) {
        // A 4xx answer to the first POST is how an older server says it only speaks HTTP+SSE.
        const status = (err as { code?: unknown }).code;
        if (type !== undefined || !(status === 400 || status === 404 || status === 405)) throw err;
      }
    }
    await this.start(
      new SSEClientTransport(new URL(url), {
        requestInit,
        eventSourceInit: { fetch: withHeaders(opts.headers) },
      }),
      opts,
    );
  }

  private async start(transport: Transport, opts: ConnectOptions): Promise<void> {
    this.client.onerror = (err) => {
      this.transportError ??= err.message; // the first one: what follows is its aftermath
    };
    this.client.onclose = () => {
      // A transport given up during the start (Streamable HTTP before the SSE fallback) is no loss.
      if (!this.connected || this.closing || this.lost) return;
      this.lost = true;
      opts.onLost(this.withStderr(this.closedBecause()));
    };
    await this.client.connect(transport, { timeout: opts.startTimeoutMs });
    this.connected = true;
  }

  async listTools(): Promise<McpToolInfo[]> {
    if (!this.client.getServerCapabilities()?.tools) return [];
    return this.pages(MAX_TOOL_PAGES, async (params, opts) => {
      const r = await this.client.listTools(params, opts);
      return {
        nextCursor: r.nextCursor,
        items: r.tools.map((t) => ({
          name: t.name,
          ...(t.description !== undefined ? { description: t.description } : {}),
          inputSchema: t.inputSchema as Record<string, unknown>,
          ...(t.annotations ? { annotations: t.annotations } : {}),
        })),
      };
    });
  }

  /** The resources the server lists (first pages only: a mention list shows a few dozen at most). */
  async listResources(): Promise<McpResourceInfo[]> {
    if (this.lost || !this.client.getServerCapabilities()?.resources) return [];
    return this.pages(MAX_RESOURCE_PAGES, async (params, opts) => {
      const r = await this.client.listResources(params, opts);
      return {
        nextCursor: r.nextCursor,
        items: r.resources.map((x) => ({
          uri: x.uri,
          name: x.name,
          ...(x.description !== undefined ? { description: x.description } : {}),
          ...(x.mimeType !== undefined ? { mimeType: x.mimeType } : {}),
        })),
      };
    });
  }

  /** The prompts the server lists (first pages only), with their arguments. */
  async listPrompts(): Promise<McpPromptInfo[]> {
    if (this.lost || !this.client.getServerCapabilities()?.prompts) return [];
    return this.pages(MAX_RESOURCE_PAGES, async (params, opts) => {
      const r = await this.client.listPrompts(params, opts);
      return {
        nextCursor: r.nextCursor,
        items: r.prompts.map((x) => ({
          name: x.name,
          ...(x.description !== undefined ? { description: x.description } : {}),
          required: (x.arguments ?? []).filter((a) => a.required).map((a) => a.name),
        })),
      };
    });
  }

  /** Up to `max` pages of a paginated MCP list, following its cursor. */
  private async pages<T>(
    max: number,
    page: (
      params: { cursor: string } | undefined,
      opts: { timeout: number },
    ) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
  ): Promise<T[]> {
    const out: T[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < max; n++) {
      const r = await page(cursor ? { cursor } : undefined, { timeout: this.callTimeoutMs });
      out.push(...r.items);
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    return out;
  }

  /** A prompt's messages as text (`role: text`), images and resources named, not inlined. */
  async getPrompt(name: string): Promise<string> {
    if (this.lost) throw new Error('the server is no longer running');
    const result = await this.client.getPrompt({ name }, { timeout: this.callTimeoutMs });
    return result.messages
      .map((m) => {
        const c = m.content as { type: string; text?: string; resource?: { uri?: string; text?: string } };
        const body =
          c.type === 'text'
            ? (c.text ?? '')
            : c.type === 'resource'
              ? (c.resource?.text ?? `[resource ${c.resource?.uri ?? ''}]`)
              : `[${c.type} content not attached]`;
        return `${m.role}: ${body}`;
      })
      .join('\n\n');
  }

  /** A resource's contents: text parts as they are, binary ones by their type and size. */
  async readResource(uri: string): Promise<{ text: string; binary: { mimeType: string; bytes: number }[] }> {
    if (this.lost) throw new Error('the server is no longer running');
    const result = await this.client.readResource({ uri }, { timeout: this.callTimeoutMs });
    const texts: string[] = [];
    const binary: { mimeType: string; bytes: number }[] = [];
    for (const c of result.contents) {
      if ('text' in c && typeof c.text === 'string') texts.push(c.text);
      else if ('blob' in c && typeof c.blob === 'string')
        binary.push({
          mimeType: c.mimeType ?? 'application/octet-stream',
          bytes: Math.floor((c.blob.length * 3) / 4),
        });
    }
    return { text: texts.join('\n'), binary };
  }

  async callTool(tool: string, args: Record<string, unknown>, opts: McpCallOptions): Promise<unknown> {
    if (this.lost) throw new Error('the server is no longer running');
    try {
      return await this.client.callTool({ name: tool, arguments: args }, undefined, {
        signal: opts.signal,
        timeout: this.callTimeoutMs,
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (/timed out|timeout/i.test(message))
        throw new Error(`no answer within ${this.callTimeoutMs / 1000} s (the server's "timeout")`);
      throw new Error(
        this.lost ? this.withStderr(`${readable(message)} (${this.closedBecause()})`) : readable(message),
      );
    }
  }

  get alive(): boolean {
    return !this.lost && !this.closing;
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.client.close().catch(() => undefined);
  }

  private closedBecause(): string {
    const e = this.transportError;
    if (e && /ReadBuffer exceeded maximum size of (\d+)/.test(e))
      return `its answer was larger than the ${Math.round(Number(/(\d+) bytes/.exec(e)?.[1]) / 1024 / 1024)} MiB a message may have, so the connection was closed`;
    return e ? `the connection closed after: ${e}` : 'the connection closed';
  }

  private keepStderr(text: string): void {
    this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL);
  }

  private withStderr(message: string): string {
    const tail = this.stderrTail.trim();
    return tail ? `${message}; the server said: ${tail.split('\n').slice(-5).join('\n')}` : message;
  }
}

function startError(err: unknown, timeoutMs: number): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/timed out|timeout/i.test(message)) return `it did not answer within ${timeoutMs / 1000} s`;
  return readable(message);
}

/** Most characters of a server's error kept in a message. */
const ERROR_CHARS = 600;

/** An error as a line worth reading: an HTML error page reduced to its text, long text clipped. */
export function readable(message: string): string {
  const text = /<\/?[a-z][^>]*>/i.test(message) ? message.replace(/<[^>]*>/g, ' ') : message;
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > ERROR_CHARS ? `${flat.slice(0, ERROR_CHARS - 1)}…` : flat;
}

/** The SSE stream's GET carries the configured headers too. */
function withHeaders(headers: Record<string, string>): typeof fetch {
  return (input, init) =>
    fetch(input, { ...init, headers: { ...headers, ...(init?.headers as Record<string, string>) } });
}
