// Real MCP servers for tests: the reference server from npm (stdio, or Streamable HTTP on a free
// port) and the fault server in test/support, with a hub whose log lines the test can read.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { McpHub, parseMcpServers } from '../../../src/host/node/mcp';
import { environmentResolver } from '../../../src/host/node/mcp/references';
import type { CommandSandbox } from '../../../src/host/node/sandbox';

const ROOT = join(__dirname, '..', '..', '..');
export const EVERYTHING = join(
  ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);
export const FAULT_SERVER = join(ROOT, 'test', 'support', 'mcp-fault-server.mjs');
export const PROBE_SERVER = join(ROOT, 'test', 'support', 'mcp-probe-server.mjs');

export const everythingStdio = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
export const faultStdio = (extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: [FAULT_SERVER],
  ...extra,
});

export const probeStdio = (extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: [PROBE_SERVER],
  ...extra,
});

export interface TestHub {
  hub: McpHub;
  logs: string[];
}

export async function hubFor(
  servers: Record<string, unknown>,
  cwd: string,
  opts: {
    reserved?: string[];
    baseEnv?: Record<string, string | undefined>;
    startTimeoutMs?: number;
    sandbox?: CommandSandbox;
    passEnvironment?: string[];
  } = {},
): Promise<TestHub> {
  const logs: string[] = [];
  const hub = new McpHub({
    cwd,
    baseEnv: opts.baseEnv ?? process.env,
    resolve: environmentResolver(process.env),
    reservedNames: opts.reserved ?? [],
    log: (line) => logs.push(line),
    startTimeoutMs: opts.startTimeoutMs ?? 20_000,
    ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
    ...(opts.passEnvironment ? { passEnvironment: opts.passEnvironment } : {}),
  });
  await hub.configure(parseMcpServers({ mcpServers: servers }));
  return { hub, logs };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** The reference server over Streamable HTTP (or the older HTTP+SSE); resolves once it listens. */
export async function startEverythingHttp(
  transport: 'streamableHttp' | 'sse' = 'streamableHttp',
): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING, transport], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the HTTP server did not start')), 20_000);
    const check = (chunk: Buffer) => {
      if (/listening on port|running on port/i.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stderr!.on('data', check);
    child.stdout!.on('data', () => undefined);
    child.once('exit', (code) => reject(new Error(`the HTTP server exited (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${port}/${transport === 'sse' ? 'sse' : 'mcp'}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
