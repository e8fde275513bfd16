// Hostile cases of a remote conversation whose agent-server is gone for good: a conversation left
// waiting for an answer, then approve, reject and a resume (`run --remote --store`) once nothing
// listens at the server's address any more. Each stops at once with a message naming the server
// and what became of the log, exit code 1; the log is not touched and `verify` passes. And a run
// the server stops without saying so on the stream is not waited on for ever.
// The server is the recorded-protocol stand-in (test/support/agent-server-stand-in.ts); the real
// server killed mid-run is test/remote/remote-faults.test.ts, and in the chat
// test/host/suite/remote-gone.test.ts.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { CONVERSATION, event, KEY, standIn, status, text } from '../../support/agent-server-stand-in';
import { runCli } from '../cli/cli-runner';

function heldWrite(): string[] {
  const msg = event('MessageEvent', {
    source: 'user',
    parent_id: null,
    llm_message: { role: 'user', content: [{ type: 'text', text: 'write x' }] },
  });
  const action = event('ActionEvent', {
    source: 'agent',
    parent_id: msg.id,
    thought: [],
    action: { kind: 'TerminalAction', command: 'echo hi > x' },
    tool_name: 'terminal',
    tool_call_id: 'call_x',
    tool_call: {
      id: 'call_x',
      name: 'terminal',
      arguments: JSON.stringify({ command: 'echo hi > x', security_risk: 'LOW' }),
      origin: 'completion',
    },
    llm_response_id: 'r1',
    security_risk: 'LOW',
  });
  return [
    JSON.stringify(msg),
    JSON.stringify(action),
    JSON.stringify(status('waiting_for_confirmation', action.id)),
  ];
}

/** The log's segment files, as bytes: what must not change. */
function segments(dir: string): string {
  return readdirSync(join(dir, 'segments'))
    .sort()
    .map((f) => readFileSync(join(dir, 'segments', f), 'utf8'))
    .join('\n');
}

describe('hostile: a remote conversation whose agent-server is gone for good', function () {
  this.timeout(60_000);
  let root: string;
  const env = {
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    OPENAI_API_KEY: 'sk-test',
    LOGBOOK_MODEL: 'scripted-model',
    LOGBOOK_REMOTE_KEY: KEY,
  };

  beforeEach(() => {
    // Under the repository's ignored test output, not /tmp.
    const base = join(__dirname, '..', '..', '..', 'test-results');
    mkdirSync(base, { recursive: true });
    root = mkdtempSync(join(base, 'hostile-remote-gone-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const storeOf = () => join(root, '.logbook', 'conversations', CONVERSATION);

  it('approve, reject and resume each stop at once with a clear message; the log is untouched and verifies', async () => {
    const s = await standIn({ frames: heldWrite });
    const streams: Socket[] = [];
    s.server.on('upgrade', (_req, socket: Socket) => streams.push(socket));
    const r = await runCli(['run', '--remote', s.url, '--no-input', 'write x'], { env, cwd: root });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    // Gone: nothing listens at its address any more.
    for (const socket of streams) socket.destroy();
    s.server.closeAllConnections();
    await new Promise((done) => s.server.close(done));
    const before = segments(storeOf());
    for (const args of [
      ['approve', storeOf()],
      ['reject', storeOf(), '--reason', 'not now'],
      ['run', '--remote', s.url, '--store', storeOf()],
    ]) {
      const t0 = Date.now();
      const d = await runCli(args, { env, cwd: root });
      assert.equal(d.code, 1, `${args[0]}: ${d.stdout}${d.stderr}`);
      assert.ok(Date.now() - t0 < 20_000, `${args[0]} took ${Date.now() - t0} ms`);
      assert.match(d.stderr, new RegExp(`agent-server at ${s.url.replace(/[.:/]/g, '\\$&')}`), d.stderr);
      assert.match(
        d.stderr,
        /^logbook \w+: the agent-server at \S+ cannot be reached \(ECONNREFUSED\)\. Nothing was sent; the 3 event\(s\) received are in .+, unchanged \(last known: waiting_for_confirmation\)\. Run it again once the server answers\.\n$/,
      );
      assert.equal(segments(storeOf()), before, `${args[0]} changed the log`);
    }
    const v = await runCli(['verify', storeOf()], { env });
    assert.equal(v.code, 0, v.stdout + v.stderr);
  });

  it('a run the server stops without a status on the stream is not waited on for ever: its status is asked, and the stream reopened', async () => {
    const msg = event('MessageEvent', {
      source: 'user',
      parent_id: null,
      llm_message: { role: 'user', content: [{ type: 'text', text: 'write x' }] },
    });
    let connections = 0;
    const s = await standIn({
      // The first stream says running, then nothing; the server's state says error (as after a
      // failure it records only there); a stream opened again gets its snapshot, which says so.
      stream: (socket) => {
        connections += 1;
        if (connections === 1) {
          socket.write(text(JSON.stringify(msg)));
          socket.write(text(JSON.stringify(status('running', msg.id))));
        } else {
          const snapshot = event('ConversationStateUpdateEvent', {
            key: 'full_state',
            value: { execution_status: 'error' },
            parent_id: msg.id,
          });
          socket.write(text(JSON.stringify(snapshot)));
        }
      },
      get: (url) =>
        url.pathname === `/api/conversations/${CONVERSATION}` ? { execution_status: 'error' } : undefined,
    });
    const streams: Socket[] = [];
    s.server.on('upgrade', (_req, socket: Socket) => streams.push(socket));
    try {
      const r = await runCli(['run', '--remote', s.url, '--no-input', 'write x'], { env, cwd: root });
      assert.equal(r.code, 3, r.stdout + r.stderr);
      assert.equal(connections, 2);
      const v = await runCli(['verify', storeOf()], { env });
      assert.equal(v.code, 0, v.stdout + v.stderr);
    } finally {
      for (const socket of streams) socket.destroy();
      s.server.close();
    }
  });
});
