// An ACP client built on the SDK's own client app, driving a real `logbook acp` process over its
// stdin and stdout, as an editor does. It keeps every session/update it receives, answers
// permission requests as the test scripts them, and can write raw lines (garbage) to the agent.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import {
  client,
  type ClientConnection,
  ndJsonStream,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import { cliBundle, testCheckpointsDir, testConfigDir, testSigningKey } from '../unit/cli/cli-runner';

export type PermissionAnswer = (req: RequestPermissionRequest) => Promise<RequestPermissionResponse>;

export class AcpTestClient {
  readonly updates: SessionNotification[] = [];
  readonly permissions: RequestPermissionRequest[] = [];
  /** The editor's unsaved buffers by path: what fs/read_text_file answers before the disk. */
  readonly buffers = new Map<string, string>();
  /** Every fs/read_text_file and fs/write_text_file the agent asked for, in order. */
  readonly fsCalls: { method: string; path: string; content?: string }[] = [];
  stderr = '';
  /** How the next permission requests are answered (default: allow once). */
  answer: PermissionAnswer = async (req) => ({
    outcome: { outcome: 'selected', optionId: req.options.find((o) => o.kind === 'allow_once')!.optionId },
  });
  private readonly waiters: { test: () => boolean; resolve: () => void }[] = [];

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    readonly connection: ClientConnection,
  ) {}

  static async start(env: Record<string, string>, args: readonly string[] = []): Promise<AcpTestClient> {
    const cli = await cliBundle();
    const childEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) {
      if (v !== undefined && !/^(OPENAI_|LOGBOOK_)/.test(k)) childEnv[k] = v;
    }
    Object.assign(childEnv, {
      LOGBOOK_SIGNING_KEY: testSigningKey(),
      XDG_CONFIG_HOME: testConfigDir(),
      LOGBOOK_CHECKPOINTS_DIR: testCheckpointsDir(),
      ...env,
    });
    const child = spawn(process.execPath, [cli, 'acp', ...args], { env: childEnv });
    // The handlers run once the client below exists.
    const box: { self?: AcpTestClient } = {};
    const app = client({ name: 'logbook-test-client' })
      .onNotification('session/update', ({ params }) => {
        box.self!.updates.push(params);
        box.self!.wake();
      })
      .onRequest('session/request_permission', async ({ params }) => {
        box.self!.permissions.push(params);
        box.self!.wake();
        return box.self!.answer(params);
      })
      // As an editor: a read sees the buffer, a write lands in the buffer and is saved.
      .onRequest('fs/read_text_file', ({ params }) => {
        box.self!.fsCalls.push({ method: 'read', path: params.path });
        return { content: box.self!.buffers.get(params.path) ?? readFileSync(params.path, 'utf8') };
      })
      .onRequest('fs/write_text_file', ({ params }) => {
        box.self!.fsCalls.push({ method: 'write', path: params.path, content: params.content });
        box.self!.buffers.delete(params.path);
        writeFileSync(params.path, params.content);
        return {};
      });
    const stream = ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    );
    const connection = app.connect(stream);
    const self = new AcpTestClient(child, connection);
    box.self = self;
    child.stderr.setEncoding('utf8').on('data', (d: string) => (self.stderr += d));
    return self;
  }

  get agent() {
    return this.connection.agent;
  }

  /** `editorFiles`: offer fs/read_text_file and fs/write_text_file, as Zed does. */
  async initialize(editorFiles = false) {
    return this.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: {
        fs: { readTextFile: editorFiles, writeTextFile: editorFiles },
        terminal: false,
      },
    });
  }

  /** Resolves once `test` holds for what has arrived (updates, permission requests). */
  until(test: () => boolean, timeoutMs = 20_000): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting; stderr:\n${this.stderr}`)),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  /** The updates of one kind, in order. */
  of(kind: string) {
    return this.updates.map((n) => n.update).filter((u) => u.sessionUpdate === kind);
  }

  /** The streamed text of a kind of chunk, joined. */
  text(kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk'): string {
    return this.updates
      .map(({ update: u }) => (u.sessionUpdate === kind && u.content.type === 'text' ? u.content.text : ''))
      .join('');
  }

  /** Ends the connection as an editor does (stdin closes); resolves with the exit code. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.child.exitCode;
    const exited = new Promise<number | null>((resolve) => this.child.once('exit', (code) => resolve(code)));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) {
      if (w.test()) w.resolve();
      else this.waiters.push(w);
    }
  }
}
