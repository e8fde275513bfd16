// A real local HTTP server for the web tools, and a WebPort in which the made-up public name
// `docs.example` stands for it. The server listens on 127.0.0.1, which the address rules refuse, so
// the first hop to docs.example is handed over as already checked at 127.0.0.1 (as a confirmed
// address is); everything else, redirects included, goes through the real checks and conversion.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebPort } from '../../../src/core/tools';
import { guardedFetch, type Lookup, type WebRules } from '../../../src/host/node/web/guarded-fetch';
import { NodeWebPort, readable } from '../../../src/host/node/web/node-web-port';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface LocalSite {
  port: number;
  /** Paths requested, in order. */
  hits: string[];
  routes: Record<string, Route>;
  url(path: string): string;
  close(): Promise<void>;
}

export async function startSite(routes: Record<string, Route> = {}): Promise<LocalSite> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push(path);
    const route = site.routes[path.split('?')[0]!];
    if (route) route(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const site: LocalSite = {
    port,
    hits,
    routes,
    url: (path) => `http://docs.example:${port}${path}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  return site;
}

/** `inside.example` resolves to 127.0.0.1; other names do not resolve. */
export const testLookup: Lookup = async (host) => {
  if (host === 'inside.example' || host === 'docs.example') return [{ address: '127.0.0.1', family: 4 }];
  throw new Error(`getaddrinfo ENOTFOUND ${host}`);
};

export const CLOSED: WebRules = { allowPrivateAddresses: false, allowedHosts: [] };

export function localWeb(
  site: LocalSite,
  opts: { rules?: WebRules; maxBytes?: number } = {},
): WebPort & { reads: number } {
  const rules = opts.rules ?? CLOSED;
  const maxBytes = opts.maxBytes ?? 1024 * 1024;
  const real = new NodeWebPort({ rules: () => rules, lookup: testLookup, maxBytes, timeoutMs: 5_000 });
  const standIn = (url: string) => {
    try {
      return new URL(url).hostname === 'docs.example';
    } catch {
      return false;
    }
  };
  const port = {
    reads: 0,
    check: async (url: string) =>
      standIn(url)
        ? {
            ok: true as const,
            url: new URL(url).href,
            address: '127.0.0.1',
            allowedHost: real.isAllowedHost(url),
          }
        : real.check(url),
    read: async (url: string, o: { raw: boolean; address?: string; signal?: AbortSignal }) => {
      port.reads++;
      if (!standIn(url)) return real.read(url, o);
      const page = await guardedFetch(url, {
        ...rules,
        maxBytes,
        timeoutMs: 5_000,
        lookup: testLookup,
        first: { url: new URL(url), address: '127.0.0.1', family: 4 },
        ...(o.signal ? { signal: o.signal } : {}),
      });
      return readable(page, o.raw, maxBytes);
    },
    isAllowedHost: (url: string) => real.isAllowedHost(url),
  };
  return port;
}
