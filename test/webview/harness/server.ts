// Serves the chat webview outside VS Code: the document (and CSP) the extension really renders, the
// built bundle from dist/, and the harness files. Only 127.0.0.1, only files under those folders.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { webviewDocument } from '../../../src/host/vscode/chat/webview-html';

const ROOT = join(__dirname, '..', '..', '..');
const DIST = join(ROOT, 'dist');
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
  '.html': 'text/html',
};

export interface HarnessServer {
  origin: string;
  /** URL of the panel page; theme is dark, light or high-contrast. */
  pageUrl(opts?: { theme?: string; surface?: 'sidebar' | 'editor'; demoTasks?: readonly string[] }): string;
  close(): Promise<void>;
}

/** The real document plus, before the app's script, the harness theme sheet and fake host (same nonce). */
export function harnessDocument(
  origin: string,
  surface: 'sidebar' | 'editor',
  demoTasks?: readonly string[],
): string {
  const nonce = randomBytes(16).toString('base64');
  const html = webviewDocument({
    cspSource: origin,
    asset: (n) => `${origin}/dist/${n}`,
    nonce,
    title: 'Logbook',
    surface,
    ...(demoTasks ? { demoTasks } : {}),
  });
  const inject =
    `<link rel="stylesheet" href="${origin}/harness/themes.css">\n` +
    `<script nonce="${nonce}" src="${origin}/harness/fake-vscode-api.js"></script>\n`;
  const at = html.indexOf(`<script nonce="${nonce}"`);
  if (at < 0) throw new Error('the webview document has no nonce script');
  return html.slice(0, at) + inject + html.slice(at);
}

/** `distDir` serves another build of the webview in place of dist/ (the benchmark's baseline). */
export async function startHarnessServer(opts: { distDir?: string } = {}): Promise<HarnessServer> {
  const mounts: Record<string, string> = { '/dist/': opts.distDir ?? DIST, '/harness/': __dirname };
  let origin = '';
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', origin);
      if (url.pathname === '/' || url.pathname === '/index.html') {
        const surface = url.searchParams.get('surface') === 'editor' ? 'editor' : 'sidebar';
        const demo = url.searchParams.getAll('demo');
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(harnessDocument(origin, surface, demo.length ? demo : undefined));
        return;
      }
      const mount = Object.keys(mounts).find((m) => url.pathname.startsWith(m));
      if (mount) {
        const base = mounts[mount]!;
        const file = normalize(join(base, decodeURIComponent(url.pathname.slice(mount.length))));
        if (file.startsWith(base + sep)) {
          try {
            const body = await readFile(file);
            res.writeHead(200, {
              'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
              'cache-control': 'no-store',
            });
            res.end(body);
            return;
          } catch {
            /* fall through to 404 */
          }
        }
      }
      res.writeHead(404).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    pageUrl: ({ theme = 'dark', surface = 'sidebar', demoTasks = [] } = {}) =>
      `${origin}/index.html?theme=${theme}&surface=${surface}` +
      demoTasks.map((t) => `&demo=${encodeURIComponent(t)}`).join(''),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
