// Logbook as an Agent Client Protocol agent over stdio: an editor (Zed, a JetBrains IDE, Neovim)
// starts `logbook acp` and talks JSON-RPC on its stdin and stdout. stdout carries nothing else;
// what the CLI would print goes to stderr, where editors keep an agent's log.
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  agent,
  type FileSystemCapabilities,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  type SessionInfo,
} from '@agentclientprotocol/sdk';
import { version } from '../../../../package.json';
import { isAgentMode } from '../../../core/agent/plan-mode';
import type { PreparedSession } from '../cli/cli-session';
import { isDirectory } from '../cli/conversation-dir';
import { readSessionInfo } from '../cli/session-file';
import { AcpSession, conversationsRoot } from './acp-session';

export interface AcpServeOptions {
  prepared: PreparedSession;
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  /** Ends the connection as the client closing it would (a stop signal): turns pause, logs close. */
  signal?: AbortSignal;
}

/** Serves one client until it closes the connection (stdin ends); then closes every session. */
export async function serveAcp(opts: AcpServeOptions): Promise<void> {
  const { prepared } = opts;
  const sessions = new Map<string, AcpSession>();
  // What the editor offers to do for the agent, as it said in initialize.
  let fs: FileSystemCapabilities = {};
  const opening = new Map<string, Promise<AcpSession>>();

  const sessionOf = (id: string): AcpSession => {
    const s = sessions.get(id);
    if (!s) throw RequestError.invalidParams({ sessionId: id }, `No open session ${id}; load it first.`);
    return s;
  };

  const app = agent({ name: 'logbook' })
    .onRequest('initialize', ({ params }) => {
      fs = params.clientCapabilities?.fs ?? {};
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
          // stdio servers are every agent's; http and sse ones start as in Logbook's MCP file.
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {} },
        },
        agentInfo: { name: 'logbook', title: 'Logbook', version },
        authMethods: [],
      };
    })
    .onRequest('session/new', async ({ params, client }) => {
      const workspace = workspaceOf(params.cwd);
      const s = await AcpSession.create(prepared, workspace, { client, fs, mcpServers: params.mcpServers });
      sessions.set(s.id, s);
      return { sessionId: s.id, modes: s.modes() };
    })
    .onRequest('session/load', async ({ params, client }) => {
      const workspace = workspaceOf(params.cwd);
      let s = sessions.get(params.sessionId);
      if (!s) {
        // Two loads of one session at once open it once.
        let pending = opening.get(params.sessionId);
        if (!pending) {
          pending = AcpSession.resume(prepared, workspace, params.sessionId, {
            client,
            fs,
            mcpServers: params.mcpServers,
          }).then((found) => {
            if (!found)
              throw RequestError.invalidParams(
                { sessionId: params.sessionId },
                `No conversation ${params.sessionId} in ${workspace}.`,
              );
            return found;
          });
          opening.set(params.sessionId, pending);
        }
        try {
          s = await pending;
        } finally {
          opening.delete(params.sessionId);
        }
        sessions.set(s.id, s);
      }
      await s.replay();
      return { modes: s.modes() };
    })
    .onRequest('session/list', ({ params }) => ({
      sessions: listSessions(workspaceOf(params.cwd ?? prepared.io.cwd)),
    }))
    .onRequest('session/prompt', async ({ params }) => ({
      stopReason: await sessionOf(params.sessionId).prompt(params.prompt),
    }))
    .onRequest('session/set_mode', async ({ params }) => {
      if (!isAgentMode(params.modeId))
        throw RequestError.invalidParams({ modeId: params.modeId }, 'The modes are act and plan.');
      await sessionOf(params.sessionId).setMode(params.modeId);
      return {};
    })
    .onNotification('session/cancel', async ({ params }) => {
      await sessions.get(params.sessionId)?.cancel();
    });

  const inputStream = opts.input ?? process.stdin;
  const output = Writable.toWeb((opts.output ?? process.stdout) as Writable) as WritableStream<Uint8Array>;
  const input = Readable.toWeb(inputStream as Readable) as ReadableStream<Uint8Array>;
  const connection = app.connect(ndJsonStream(output, input));
  opts.signal?.addEventListener('abort', () => connection.close(), { once: true });
  await connection.closed;
  for (const s of sessions.values()) await s.close().catch(() => undefined);
  // Closed by a signal while the client still writes: stop reading, so the process can end.
  (inputStream as Readable).destroy();
}

function workspaceOf(cwd: string): string {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams({ cwd }, 'cwd must be an absolute path.');
  if (!isDirectory(cwd)) throw RequestError.invalidParams({ cwd }, `${cwd} is not a directory.`);
  return cwd;
}

/** The workspace's conversations with a session.json (those `run` and `acp` start), newest first. */
function listSessions(workspace: string): SessionInfo[] {
  const root = conversationsRoot(workspace);
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const found: SessionInfo[] = [];
  for (const name of names) {
    const dir = join(root, name);
    try {
      const info = readSessionInfo(dir);
      if (!info || info.workspace !== workspace || info.id !== name) continue;
      const updatedAt = statSync(join(dir, 'segments')).mtime.toISOString();
      found.push({
        sessionId: info.id,
        cwd: workspace,
        updatedAt,
        ...(info.title ? { title: info.title } : {}),
      });
    } catch {
      // A damaged folder is `logbook show`'s to explain; the list goes on without it.
    }
  }
  return found.sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''));
}
