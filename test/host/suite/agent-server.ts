// The real OpenHands agent-server for host tests: why it cannot run here, and starting it (the
// process prints its URL and key, and stops when its stdin ends).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, logbook } from './helpers';

export const extensionPath = () => vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;

/** Why the real server cannot run here (its source or its prepared Python is missing), or undefined. */
export function agentServerMissing(): string | undefined {
  const src = process.env.LOGBOOK_AGENT_SERVER_SRC
    ? resolve(process.env.LOGBOOK_AGENT_SERVER_SRC)
    : resolve(extensionPath(), '..', 'shared', 'vendor', 'openhands-software-agent-sdk-611629e6');
  if (!existsSync(join(src, 'openhands-agent-server'))) return `the agent-server's source is not at ${src}`;
  if (!existsSync(join(extensionPath(), '.agent-server', 'python')))
    return 'the agent-server is not prepared (.agent-server/; run node scripts/setup-agent-server.mjs)';
  return undefined;
}

export interface AgentServer {
  url: string;
  key: string;
  child: ChildProcess;
  /** SIGKILL: the server disappears without a word; resolves once nothing answers at its URL. */
  kill(): Promise<void>;
  /** Starts it again on the same port and folder, with the conversations it kept and the same key. */
  restart(): Promise<void>;
}

export function startAgentServer(): Promise<AgentServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/agent-server-process.ts'], {
    cwd: extensionPath(),
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  /** Waiters for the next JSON line with this key. */
  const waiting = new Map<string, () => void>();
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const ask = (line: 'kill' | 'restart', answer: string) =>
    new Promise<void>((done) => {
      waiting.set(answer, done);
      child.stdin!.write(`${line}\n`);
    });
  return new Promise((done, fail) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const lines = out.split('\n');
      out = lines.pop()!;
      for (const line of lines.filter((l) => l.startsWith('{'))) {
        const said = JSON.parse(line) as Record<string, unknown>;
        if (typeof said.url === 'string' && typeof said.key === 'string')
          done({
            url: said.url,
            key: said.key,
            child,
            kill: () => ask('kill', 'killed'),
            restart: () => ask('restart', 'restarted'),
          });
        for (const [answer, resolve] of waiting)
          if (said[answer] === true) {
            waiting.delete(answer);
            resolve();
          }
      }
    });
    child.once('exit', (code) => fail(new Error(`the agent-server process exited (${code}): ${err}`)));
  });
}

/**
 * The real agent-server for a describe block: skipped with its reason when it cannot run here,
 * started once with its key given to the editor, stopped after. Returns the running server.
 */
export function useAgentServer(): () => AgentServer {
  let server: AgentServer | undefined;
  before(async function () {
    const why = agentServerMissing();
    if (why) {
      console.log(`  skipped: ${why}`);
      this.skip();
    }
    server = await startAgentServer();
    const { service } = await logbook();
    await service.remote.setKey(server.url, server.key);
  });
  after(() => {
    server?.child.stdin!.end();
  });
  return () => server!;
}
