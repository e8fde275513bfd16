// Runs the real OpenHands agent-server for the remote tests: prepared by
// scripts/setup-agent-server.mjs (Debian's packages, unpacked beside the project), started on
// 127.0.0.1 with a session API key and a working folder of its own, stopped when the test is done.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setupAgentServer } from '../../scripts/setup-agent-server.mjs';

const repoRoot = join(__dirname, '..', '..');

export interface AgentServer {
  url: string;
  key: string;
  /** The server's own folder (its conversations, its default workspace). */
  home: string;
  /** Everything the server printed, for a failing test's message. */
  output(): string;
  /** SIGKILL: the server disappears without a word. */
  kill(): void;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A folder under the repository's ignored test output (not /tmp: the sandbox replaces it). */
export function testRoot(name: string): string {
  const base = join(repoRoot, 'test-results', 'remote');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, `${name}-`));
}

export interface AgentServerOptions {
  key?: string;
  startMs?: number;
  /** Start on this port and folder (a server started again after `kill`, with the conversations it kept). */
  port?: number;
  home?: string;
}

export async function startAgentServer(opts: AgentServerOptions = {}): Promise<AgentServer> {
  const python = setupAgentServer();
  const home = opts.home ?? testRoot('agent-server');
  const key = opts.key ?? `test-key-${Math.random().toString(36).slice(2)}`;
  const port = opts.port ?? (await freePort());
  const child: ChildProcess = spawn(
    python,
    ['-m', 'agent_server_test_main', '--host', '127.0.0.1', '--port', String(port)],
    {
      cwd: home,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        SESSION_API_KEY: key,
        COLUMNS: '200',
        OH_ENABLE_VSCODE: 'false',
        OH_ENABLE_VNC: 'false',
        OH_PRELOAD_TOOLS: 'false',
        OH_CONVERSATION_WORKTREE_ROOT: join(home, 'worktrees'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + (opts.startMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`agent-server exited (${child.exitCode}) before it answered:\n${out}`);
    try {
      const res = await fetch(`${url}/alive`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > end) {
      child.kill('SIGKILL');
      throw new Error(`agent-server did not answer on ${url} in time:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    key,
    home,
    output: () => out,
    kill: () => child.kill('SIGKILL'),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}
