// A remote agent's reply as it streams: the real agent-server sends the model's text as transient
// StreamingDeltaEvents, which the stream the chat listens to hands on as the local stream's deltas
// before the reply's final event, and never writes to the signed log. A socket dropped mid-reply
// drops what was shown of it. Run with `npm run test:remote`.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket, connect } from 'node:net';
import { join } from 'node:path';
import { newSigningKeyPem } from '../../src/core/signing';
import { identityFromPem } from '../../src/core/signing/identity';
import { cliHeadFile } from '../../src/host/node/config-dir';
import { sendUserMessage, startConversation } from '../../src/host/node/remote/agent-server-api';
import type { RemoteDelta } from '../../src/host/node/remote/remote-deltas';
import { streamRemote } from '../../src/host/node/remote/remote-run';
import type { CliIo } from '../../src/host/node/cli/io';
import { openConversationStore } from '../../src/host/node/session/conversation-store';
import { type AgentServer, startAgentServer, testRoot } from '../support/agent-server';
import { type ScriptedLlm, type Scenario, startScriptedLlm } from '../support/llm-server';
import { until } from '../support/poll';
import { runCli } from '../unit/cli/cli-runner';

const REPLY =
  'Streaming from the server, word by word, so that the chat can show the reply while it is written.';

/** One reply, streamed four characters at a time with a pause between chunks, then the finish. */
function scenario(delayMs: number, hold?: string): Scenario {
  return {
    name: 'remote-stream',
    turns: [
      {
        match: { hasTools: true, lastRole: 'user' },
        reply: {
          content: REPLY,
          chunkSize: 4,
          delayMs,
          ...(hold ? { holdUntilReleased: hold } : {}),
          toolCalls: [
            {
              id: 'call_echo',
              name: 'terminal',
              arguments: { command: 'echo streamed', security_risk: 'LOW', summary: 'echo' },
            },
          ],
        },
      },
      {
        match: { lastRole: 'tool' },
        reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
      },
    ],
  };
}

/** A TCP relay in front of the server whose connections the test can cut. */
async function relay(target: string): Promise<{ url: string; cut(): void; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = connect(Number(port), hostname);
    open.add(inbound).add(outbound);
    inbound.pipe(outbound).pipe(inbound);
    const drop = () => {
      inbound.destroy();
      outbound.destroy();
      open.delete(inbound);
      open.delete(outbound);
    };
    inbound.on('error', drop).on('close', drop);
    outbound.on('error', drop).on('close', drop);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port: relayPort } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${relayPort}`,
    cut: () => {
      for (const s of open) s.destroy();
      open.clear();
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function logged(dir: string): string[] {
  return readdirSync(join(dir, 'segments'))
    .sort()
    .flatMap((f) => readFileSync(join(dir, 'segments', f), 'utf8').split('\n'))
    .filter((l) => l.trim());
}

/** What the chat is told, in order: each delta, and each event once it is in the log. */
type Told = ({ delta: RemoteDelta } | { event: { id: string; kind: string; source?: string } }) & {
  at: number;
};

describe('a remote reply streams in (the real agent-server)', function () {
  this.timeout(180_000);
  let server: AgentServer;
  let llm: ScriptedLlm | undefined;
  let root: string;

  before(async () => {
    server = await startAgentServer();
  });
  after(async () => {
    await server?.stop();
  });
  beforeEach(() => {
    root = testRoot('remote-stream');
  });
  afterEach(async () => {
    llm?.release('reply');
    await llm?.close();
    llm = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  /** Starts the task on `url` and streams it into a signed log, noting what the chat would be told. */
  async function run(url: string, s: Scenario) {
    llm = await startScriptedLlm({ scenario: s });
    const remoteDir = join(root, 'remote');
    mkdirSync(remoteDir);
    const target = { url, key: server.key };
    const id = await startConversation(target, {
      workingDir: remoteDir,
      confirmation: 'never',
      model: { model: 'scripted-model', baseUrl: llm.baseUrl, apiKey: 'sk-test' },
    });
    const dir = join(root, 'local', id);
    // The key and the head where `logbook verify` (run with `env`) looks for them.
    const pem = newSigningKeyPem();
    const env = { LOGBOOK_SIGNING_KEY: join(root, 'key.pem'), XDG_CONFIG_HOME: join(root, 'config') };
    writeFileSync(env.LOGBOOK_SIGNING_KEY, pem, { mode: 0o600 });
    const store = await openConversationStore(dir, {
      signing: identityFromPem(pem),
      conversationId: id,
      headFile: cliHeadFile(env, dir),
    });
    const told: Told[] = [];
    const errors: string[] = [];
    const io: CliIo = {
      out: () => undefined,
      err: (line) => errors.push(line),
      env: {},
      cwd: root,
      onInterrupt: () => () => undefined,
    };
    const done = streamRemote(
      io,
      {
        target,
        remoteDir,
        askInPlace: false,
        json: false,
        appended: (event) =>
          told.push({ event: event as unknown as { id: string; kind: string }, at: Date.now() }),
        delta: (delta) => told.push({ delta, at: Date.now() }),
        // As the editor's remote session does: the task goes once the stream listens (the server
        // streams a reply's text only to those listening when it is written), so no word is missed.
        send: () => sendUserMessage(target, id, 'say something'),
      },
      id,
      store,
      [],
    ).finally(() => store.close());
    return { id, dir, env, told, errors, done };
  }

  const textOf = (told: readonly Told[]) =>
    told.map((t) => ('delta' in t && t.delta.type === 'text' ? t.delta.text : '')).join('');
  const finalIndex = (told: readonly Told[]) =>
    told.findIndex((t) => 'event' in t && t.event.source === 'agent' && t.event.kind === 'ActionEvent');

  it('the reply arrives as deltas before its final event, and no delta is written to the log', async () => {
    const { dir, env, told, errors, done } = await run(server.url, scenario(20));
    const code = await done;
    assert.equal(code, 0, errors.join('\n'));
    // The server was asked to stream (the agent's llm.stream), and the model streamed.
    assert.equal(llm!.completionBodies()[0]?.stream, true);
    const final = finalIndex(told);
    assert.ok(final > 0, 'the reply has a final event');
    const before = told.slice(0, final).filter((t) => 'delta' in t);
    assert.ok(before.length > 5, `deltas before the final event: ${before.length}`);
    assert.equal(textOf(told.slice(0, final)), REPLY, 'the deltas spell the reply, in order');
    // As the model writes it (25 chunks, 20 ms apart), not all at once when the reply is done.
    const ahead = told[final]!.at - before[0]!.at;
    assert.ok(ahead >= 250, `the first delta came ${ahead} ms before the final event`);
    const lines = logged(dir);
    assert.ok(lines.length > 0);
    assert.ok(!lines.some((l) => /StreamingDelta/.test(l)), 'a delta in the log');
    assert.ok(!lines.some((l) => l.includes('"content":"Stre"')), "a delta's text in the log");
    // The whole message is there, once, with the action it came with.
    assert.equal(lines.filter((l) => l.includes(JSON.stringify(REPLY).slice(1, -1))).length, 1);
    const verify = await runCli(['verify', dir], { env });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  });

  it('a socket dropped mid-reply drops what was shown of it; the final event still comes, once', async () => {
    const front = await relay(server.url);
    try {
      const { dir, told, errors, done } = await run(front.url, scenario(150));
      await until(() => told.filter((t) => 'delta' in t).length >= 4, 'the first deltas', 60_000);
      front.cut();
      const code = await done;
      assert.equal(code, 0, errors.join('\n'));
      assert.ok(
        errors.some((l) => /the event stream dropped/.test(l)),
        errors.join('\n'),
      );
      const final = finalIndex(told);
      const discard = told.findIndex((t) => 'delta' in t && t.delta.type === 'discard');
      assert.ok(discard > 0 && discard < final, `a discard before the final event (${discard}, ${final})`);
      // Nothing of the reply is shown again between the drop and its final event: no half message.
      assert.deepEqual(
        told.slice(discard + 1, final).filter((t) => 'delta' in t),
        [],
        'deltas shown after the drop',
      );
      const ids = logged(dir).map((l) => (JSON.parse(l.split(' ').slice(3).join(' ')) as { id: string }).id);
      assert.equal(new Set(ids).size, ids.length, 'an event written twice');
      assert.ok(!logged(dir).some((l) => /StreamingDelta/.test(l)), 'a delta in the log');
    } finally {
      await front.close();
    }
  });
});
