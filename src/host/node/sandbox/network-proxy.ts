// The sandbox's one way out: an HTTP proxy on a Unix socket that the host runs and mounts into the
// sandbox. It lets through HTTPS tunnels (CONNECT) and plain HTTP requests to allowed hosts only,
// and names every other host it turned away, so the user can be asked for it.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface NetworkProxyOptions {
  /** Whether a host may be reached: the allow list, or the user's answer when asked. */
  allow: (host: string) => boolean | Promise<boolean>;
  /** Told of each host turned away. */
  onDenied?: (host: string) => void;
}

export class NetworkProxy {
  readonly socketPath: string;
  private readonly dir: string;
  private readonly server: http.Server;
  private readonly open = new Set<net.Socket>();

  private constructor(private readonly opts: NetworkProxyOptions) {
    // A folder only this user can enter: nobody else can use the proxy.
    this.dir = mkdtempSync(join(tmpdir(), 'logbook-net-'));
    this.socketPath = join(this.dir, 'proxy.sock');
    this.server = http.createServer((req, res) => void this.forward(req, res));
    this.server.on(
      'connect',
      (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => void this.tunnel(req, socket, head),
    );
    this.server.on('connection', (s: net.Socket) => {
      this.open.add(s);
      s.on('close', () => this.open.delete(s));
    });
  }

  static async start(opts: NetworkProxyOptions): Promise<NetworkProxy> {
    const proxy = new NetworkProxy(opts);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(proxy.socketPath, () => resolve());
    });
    return proxy;
  }

  async close(): Promise<void> {
    for (const s of this.open) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async permitted(host: string): Promise<boolean> {
    let ok = false;
    try {
      ok = await this.opts.allow(host);
    } catch {
      ok = false;
    }
    if (!ok) this.opts.onDenied?.(host);
    return ok;
  }

  private async tunnel(req: http.IncomingMessage, client: net.Socket, head: Buffer): Promise<void> {
    client.on('error', () => undefined);
    const target = parseAuthority(req.url ?? '');
    if (!target) return refuse(client, 400, 'Bad CONNECT target');
    if (!(await this.permitted(target.host))) return refuse(client, 403, deniedText(target.host));
    const upstream = net.connect(target.port, target.host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (err) => refuse(client, 502, `Could not reach ${target.host}: ${err.message}`));
    client.on('close', () => upstream.destroy());
  }

  private async forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('The sandbox proxy takes absolute URLs only.\n');
      return;
    }
    if (url.protocol !== 'http:') {
      res.writeHead(400).end('Only http:// requests pass the proxy without CONNECT.\n');
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!(await this.permitted(host))) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end(`${deniedText(host)}\n`);
      return;
    }
    const upstream = http.request(
      url,
      { method: req.method, headers: withoutHopHeaders(req.headers) },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502).end(`Could not reach ${host}: ${err.message}\n`);
      else res.destroy();
    });
    req.pipe(upstream);
  }
}

/** The words a command prints when its host is turned away: they name the host and the setting. */
export function deniedText(host: string): string {
  return `Logbook's sandbox blocked network access to ${host}: it is not in logbook.sandbox.allowedHosts.`;
}

/** The note a command's output ends with when hosts were turned away while it ran. */
export function blockedHostsText(hosts: readonly string[]): string {
  const names = hosts.join(', ');
  return `[Logbook's sandbox blocked network access to ${names}: not in logbook.sandbox.allowedHosts. Ask the user to allow ${hosts.length > 1 ? 'them' : 'it'} if the task needs it.]`;
}

/** Whether `host` is on the list: exact names, or `*.example.com` for every name under it. */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return allowed.some((entry) => {
    const e = entry.trim().toLowerCase();
    if (e === '*') return true;
    if (e.startsWith('*.')) return h.endsWith(e.slice(1)) || h === e.slice(2);
    return h === e;
  });
}

function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const m = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(authority);
  if (!m) return undefined;
  const port = Number(m[2]);
  return port > 0 && port < 65536 ? { host: m[1]!, port } : undefined;
}

function refuse(client: net.Socket, status: number, text: string): void {
  if (client.destroyed) return;
  const reason = status === 403 ? 'Forbidden' : status === 400 ? 'Bad Request' : 'Bad Gateway';
  client.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text) + 1}\r\nconnection: close\r\n\r\n${text}\n`,
  );
}

const HOP_HEADERS = new Set([
  'proxy-connection',
  'proxy-authorization',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
]);

function withoutHopHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_HEADERS.has(k.toLowerCase())));
}
