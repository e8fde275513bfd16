// A server's streaming deltas (StreamingDeltaEvent) are the model's text before its reply is done:
// shown live in the chat, never recorded. A lying server may send them with terminal escapes, with
// the id of the event that follows, with a timestamp far ahead, after the reply's final event, or
// with text where none belongs. None of it may reach the terminal, the signed log or the point a
// dropped stream resumes from, and the chat's preview must not outlive the stream. The server is the
// recorded-protocol stand-in (test/support/agent-server-stand-in.ts). The server's agent has no plan
// mode, so each case runs in act mode only.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { CONVERSATION, event, KEY, standIn, status, text } from '../../support/agent-server-stand-in';
import { openConversationStore } from '../../../src/host/node/session/conversation-store';
import type { RemoteDelta } from '../../../src/host/node/remote/remote-deltas';
import { streamRemote } from '../../../src/host/node/remote/remote-run';
import type { CliIo } from '../../../src/host/node/cli/io';
import { runCli } from '../cli/cli-runner';

type Ev = Record<string, unknown> & { id: string };

const ESCAPES = '\u001b]8;;http://evil.example\u0007click\u001b]8;;\u0007\u001b[2J\u001b[31mRED';

/** The task, a few hostile deltas, the reply they stand for, and the finish. */
function lyingStream(): { sent: Ev[]; final: Ev } {
  const task = event('MessageEvent', {
    source: 'user',
    parent_id: null,
    llm_message: { role: 'user', content: [{ type: 'text', text: 'say hi' }] },
  }) as Ev;
  const final = event('MessageEvent', {
    source: 'agent',
    parent_id: task.id,
    llm_message: { role: 'assistant', content: [{ type: 'text', text: 'hi there' }] },
  }) as Ev;
  const delta = (fields: Record<string, unknown>) =>
    ({ ...event('StreamingDeltaEvent', { source: 'agent' }), ...fields }) as Ev;
  const sent = [
    task,
    delta({ content: ESCAPES }),
    // The id the reply's final event comes with, and a timestamp far ahead of everything.
    delta({ id: final.id, content: 'DELTA-SAME-ID', timestamp: '2099-01-01T00:00:00.000000' }),
    delta({ content: { text: 'DELTA-NOT-TEXT' }, reasoning_content: 7 }),
    final,
    // Late: after the reply's final event.
    delta({ content: 'DELTA-LATE' }),
    status('finished', final.id) as Ev,
  ];
  return { sent, final };
}

describe('hostile: a remote server streaming deltas', function () {
  this.timeout(60_000);
  let root: string;
  const servers: Server[] = [];
  const env = {
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    OPENAI_API_KEY: 'sk-test',
    LOGBOOK_MODEL: 'scripted-model',
    LOGBOOK_REMOTE_KEY: KEY,
  };
  const storeOf = () => join(root, '.logbook', 'conversations', CONVERSATION);

  beforeEach(() => {
    // Under the repository's ignored test output, not /tmp.
    const base = join(__dirname, '..', '..', '..', 'test-results');
    mkdirSync(base, { recursive: true });
    root = mkdtempSync(join(base, 'hostile-remote-stream-'));
  });
  afterEach(() => {
    for (const s of servers.splice(0)) s.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function logged(): Promise<Ev[]> {
    const store = await openConversationStore(storeOf());
    try {
      return (await store.slice()) as unknown as Ev[];
    } finally {
      await store.close();
    }
  }

  for (const json of [false, true]) {
    it(`run --remote${json ? ' --json' : ''} prints and records none of them, and the reply once`, async () => {
      const { sent, final } = lyingStream();
      const s = await standIn({ frames: () => sent.map((x) => JSON.stringify(x)) });
      servers.push(s.server);
      const r = await runCli(
        ['run', '--remote', s.url, '--no-input', ...(json ? ['--json'] : []), 'say hi'],
        { env, cwd: root },
      );
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const printed = r.stdout + r.stderr;
      assert.doesNotMatch(printed, /\u001b|\u0007|DELTA-|evil\.example/, printed);
      const log = await logged();
      assert.deepEqual(
        log.map((x) => x.kind),
        ['MessageEvent', 'MessageEvent', 'ConversationStateUpdateEvent'],
      );
      // The delta that took the final event's id did not take its place.
      assert.deepEqual((log[1]!.llm_message as { content: unknown }).content, [
        { type: 'text', text: 'hi there' },
      ]);
      assert.equal(log[1]!.id, final.id);
      assert.doesNotMatch(JSON.stringify(log), /DELTA-|evil\.example/);
      const verified = await runCli(['verify', storeOf()], { env });
      assert.equal(verified.code, 0, verified.stdout + verified.stderr);
    });
  }

  it("a delta's timestamp is not where a dropped stream resumes", async () => {
    const task = event('MessageEvent', {
      source: 'user',
      parent_id: null,
      llm_message: { role: 'user', content: [{ type: 'text', text: 'say hi' }] },
    }) as Ev;
    const ahead = { ...event('StreamingDeltaEvent', { source: 'agent', content: 'x' }) };
    ahead.timestamp = '2099-01-01T00:00:00.000000';
    const opened: string[] = [];
    let streams = 0;
    const s = await standIn({
      upgraded: (url) => opened.push(url),
      stream: (socket) => {
        streams += 1;
        if (streams === 1) {
          // The task and a delta dated far ahead, then the socket drops.
          socket.write(text(JSON.stringify(task)));
          socket.write(text(JSON.stringify(ahead)));
          setTimeout(() => socket.destroy(), 100);
        } else socket.write(text(JSON.stringify(status('finished', task.id))));
      },
    });
    servers.push(s.server);
    const r = await runCli(['run', '--remote', s.url, '--no-input', 'say hi'], { env, cwd: root });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(opened.length, 2, opened.join('\n'));
    const resumedAfter = new URL(opened[1]!, 'http://x').searchParams.get('after_timestamp');
    assert.equal(resumedAfter, task.timestamp);
  });

  it("the chat's preview takes text only, and ends with the stream when deltas come late", async () => {
    const { sent } = lyingStream();
    const s = await standIn({ frames: () => sent.map((x) => JSON.stringify(x)) });
    servers.push(s.server);
    const started = await fetch(`${s.url}/api/conversations`, {
      method: 'POST',
      headers: { 'X-Session-API-Key': KEY },
    });
    assert.equal(started.status, 201);
    const store = await openConversationStore(storeOf());
    const told: RemoteDelta[] = [];
    const io: CliIo = {
      out: () => undefined,
      err: () => undefined,
      env: {},
      cwd: root,
      onInterrupt: () => () => undefined,
    };
    try {
      const code = await streamRemote(
        io,
        {
          target: { url: s.url, key: KEY },
          remoteDir: root,
          askInPlace: false,
          json: false,
          delta: (d) => told.push(d),
        },
        CONVERSATION,
        store,
        [],
      );
      assert.equal(code, 0);
    } finally {
      await store.close();
    }
    assert.deepEqual(told, [
      { type: 'text', text: ESCAPES },
      { type: 'text', text: 'DELTA-SAME-ID' },
      { type: 'text', text: 'DELTA-LATE' },
      // The late delta's reply never came: the preview ends with the stream, as a local one does.
      { type: 'end' },
    ]);
  });
});
