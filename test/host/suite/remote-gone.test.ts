// A remote conversation whose agent-server disappears (SIGKILL, the real server) and comes back on
// the same port with the conversations it kept: the chat says since when the server has not
// answered and that it is asked again; every event received stays in the signed log (Verify
// passes); Resume, Confirm and Reject fail at once with that, instead of waiting on it; once the
// server answers, the chat catches up from the last event received, each event once, and goes on
// (Resume runs the interrupted run to the end; a held command is offered again, and answered).
// After its restart the server's next model request for a conversation that was held is one the
// scripted model refuses (HTTP 400): that test follows the answer to the server's next stop.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ChatController } from '../../../src/host/vscode/chat/chat-view';
import type { HostMessage } from '../../../src/protocol/messages';
import type { Scenario, ScriptedLlm } from '../../support/llm-server';
import { extensionPath, useAgentServer } from './agent-server';
import { logbook, recordingWebview, scriptedModel, until } from './helpers';

const finish = { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] };

/** The first model call waits for `hold` (or a command to confirm, without `hold`); then finish. */
function scenario(hold?: string): Scenario {
  return {
    name: `remote-gone-${hold ?? 'held'}`,
    turns: [
      {
        match: { hasTools: true, lastRole: 'user' },
        reply: {
          ...(hold ? { holdUntilReleased: hold } : {}),
          content: 'I will write p.txt.',
          toolCalls: [
            {
              id: 'call_write',
              name: 'terminal',
              arguments: { command: 'echo one >> p.txt', security_risk: 'LOW', summary: 'write p.txt' },
            },
          ],
        },
      },
    ],
    fallback: finish,
  };
}

describe('A remote conversation whose agent-server disappears and comes back (the real agent-server)', function () {
  this.timeout(240_000);
  const server = useAgentServer();
  let llm: ScriptedLlm | undefined;
  let controller: ChatController | undefined;
  let remoteDir: string;
  /** The server was killed and not started again: the next test gets it back. */
  let down = false;
  const cfg = () => vscode.workspace.getConfiguration('logbook');

  beforeEach(async () => {
    const base = join(extensionPath(), 'test-results', 'remote');
    mkdirSync(base, { recursive: true });
    remoteDir = mkdtempSync(join(base, 'gone-'));
  });
  afterEach(async () => {
    if (down) await server().restart();
    down = false;
    controller?.dispose();
    await llm?.close();
    await cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('remote.servers', undefined, vscode.ConfigurationTarget.Global);
    rmSync(remoteDir, { recursive: true, force: true });
  });

  async function start(s: Scenario, confirmation: 'never' | 'always') {
    await cfg().update('confirmation.mode', confirmation, vscode.ConfigurationTarget.Global);
    llm = await scriptedModel(s);
    const { service } = await logbook();
    const view = recordingWebview();
    const errors: string[] = [];
    controller = new ChatController(view.port, service, {
      info: () => undefined,
      warn: () => undefined,
      error: (m) => void errors.push(String(m)),
    });
    view.send({ type: 'ready', conversationId: null, lastSeq: -1 });
    const id = (await vscode.commands.executeCommand<string>(
      'logbook.startRemoteTask',
      server().url,
      'write p.txt',
      remoteDir,
    ))!;
    assert.ok(id, 'a remote conversation started');
    const remote = (await service.remote.of(id))!;
    const shown = () =>
      view.posted.flatMap((m) => (m.type === 'events' && m.conversationId === id ? m.events : []));
    const headers = () =>
      view.posted.flatMap((m) => (m.type === 'header' && m.header.id === id ? [m.header] : []));
    const status = (s: string) => (m: HostMessage) =>
      m.type === 'header' && m.header.id === id && m.header.status === s;
    /** Each event once in the chat, the chat's events are the log's, and the log verifies. */
    const intact = async () => {
      const count = remote.eventCount;
      await until(() => shown().length >= count, 'the chat to show what the log holds', 10_000);
      const ids = shown().map((e) => e.event.id);
      assert.equal(new Set(ids).size, ids.length, 'an event shown twice');
      const logged = (await remote.eventsAfter(-1)).map((e) => e.event.id);
      assert.equal(new Set(logged).size, logged.length, 'an event written twice');
      assert.deepEqual(logged, ids, 'the chat and the log differ');
      assert.equal((await service.verify(id)).verdict, 'verified');
    };
    /** The server is away: the header says since when, the state says it is asked again. */
    const seenAway = async () => {
      await until(() => remote.unreachable !== undefined && !remote.busy, 'the server seen away', 30_000);
      await until(
        () =>
          headers().some(
            (h) => h.status === 'error' && /not answering since .*asked again/.test(h.model?.name ?? ''),
          ),
        'the header to say since when the server is away',
        10_000,
      );
      assert.match(
        remote.problemText ?? '',
        /has not answered since .*Every event received is in the log; Logbook asks it again every 3 s/,
      );
    };
    return { service, view, id, remote, shown, status, intact, seenAway, errors };
  }

  it('killed mid-run: the chat says since when, Resume fails at once; back on the same port, it catches up and runs to the end', async () => {
    const c = await start(scenario('gone'), 'never');
    await until(() => llm!.completionBodies().length > 0, 'the first model call', 90_000);
    await until(() => c.shown().length > 0, 'the first events in the chat', 30_000);
    down = true;
    await server().kill();
    await c.seenAway();
    const before = c.shown().length;
    await c.intact();
    // An answer while it is away is not sent and does not wait: it says why, at once.
    const t0 = Date.now();
    await assert.rejects(c.service.resume(c.id), /has not answered since .*Nothing was sent/);
    assert.ok(Date.now() - t0 < 10_000, `Resume took ${Date.now() - t0} ms`);
    await server().restart();
    down = false;
    // Back: the stream catches up by itself (the server marks the interrupted run as an error).
    await until(() => c.remote.unreachable === undefined && !c.remote.busy, 'the chat to catch up', 60_000);
    assert.ok(c.shown().length > before, 'nothing came from the server once it was back');
    await c.intact();
    llm!.release('gone');
    await c.service.resume(c.id);
    await until(
      () => c.view.posted.some(c.status('finished')),
      'the conversation to finish after Resume',
      90_000,
    );
    await c.intact();
  });

  it('waiting for an answer when the server goes: Confirm and Reject fail at once, saying why; back, the held command is offered again and Reject goes through', async () => {
    const c = await start(scenario(), 'always');
    const held = () => c.remote.header().pendingActionIds;
    await until(() => held().length > 0 && !c.remote.busy, 'the held command', 90_000);
    const ids = held();
    down = true;
    await server().kill();
    for (const answer of [() => c.service.approve(c.id, ids), () => c.service.reject(c.id, ids, 'not now')]) {
      const t0 = Date.now();
      await assert.rejects(answer(), /has not answered since .*Nothing was sent/);
      assert.ok(Date.now() - t0 < 10_000, `the answer took ${Date.now() - t0} ms`);
    }
    await c.seenAway();
    await c.intact();
    await server().restart();
    down = false;
    await until(() => c.remote.unreachable === undefined && !c.remote.busy, 'the chat to catch up', 60_000);
    await until(() => held().length > 0, 'the held command again', 30_000);
    // The answer goes through now: the server records the rejection with its reason, runs on, and
    // its next stop reaches the chat (whatever the server's own run does after its restart).
    await c.service.reject(c.id, held(), 'not now, after all');
    await until(
      () =>
        c
          .shown()
          .some(
            (e) =>
              e.event.kind === 'UserRejectObservation' &&
              JSON.stringify(e.event).includes('not now, after all'),
          ),
      'the rejection in the chat',
      30_000,
    );
    await until(() => !c.remote.busy && c.remote.status !== 'running', "the server's next stop", 60_000);
    await c.intact();
  });
});
