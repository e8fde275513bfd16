// The agent-server's parent_id is a tree link: a state update names the action it is about, another
// names an earlier event, so the server's parents branch. The local log of a remote conversation is
// one line in arrival order (each event's parent is the one appended before it) and keeps the
// server's own parent in received_from, so show finds a held action whatever order the stream used,
// verify still says which parent the server named, and an export imported back does too.
// The server is the recorded-protocol stand-in (test/support/agent-server-stand-in.ts).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { CONVERSATION, event, KEY, standIn, status } from '../../support/agent-server-stand-in';
import { openConversationStore } from '../../../src/host/node/session/conversation-store';
import { runCli } from '../cli/cli-runner';

type Ev = Record<string, unknown> & { id: string };

/** A user message, the action it led to, the status naming that action, and an update naming the message. */
function heldEvents(): { msg: Ev; action: Ev; waiting: Ev; update: Ev } {
  const msg = event('MessageEvent', {
    source: 'user',
    parent_id: null,
    llm_message: { role: 'user', content: [{ type: 'text', text: 'list files' }] },
  }) as Ev;
  const action = event('ActionEvent', {
    source: 'agent',
    parent_id: msg.id,
    thought: [],
    action: { kind: 'TerminalAction', command: 'ls' },
    tool_name: 'terminal',
    tool_call_id: 'call_ls',
    tool_call: {
      id: 'call_ls',
      name: 'terminal',
      arguments: JSON.stringify({ command: 'ls', security_risk: 'LOW' }),
      origin: 'completion',
    },
    llm_response_id: 'r1',
    security_risk: 'LOW',
  }) as Ev;
  const waiting = status('waiting_for_confirmation', action.id) as Ev;
  const update = event('ConversationStateUpdateEvent', { key: 'stats', value: {}, parent_id: msg.id }) as Ev;
  return { msg, action, waiting, update };
}

const ORDERS: [string, (e: ReturnType<typeof heldEvents>) => Ev[]][] = [
  ['message, action, status', (e) => [e.msg, e.action, e.waiting]],
  ['message, status before its action, action', (e) => [e.msg, e.waiting, e.action]],
  ['message, action, status, an update naming the message', (e) => [e.msg, e.action, e.waiting, e.update]],
  [
    'message, update naming the message, status before its action, action',
    (e) => [e.msg, e.update, e.waiting, e.action],
  ],
  [
    'message, status before its action, action, update naming the message',
    (e) => [e.msg, e.waiting, e.action, e.update],
  ],
];

describe('hostile: a remote conversation whose server parents branch', function () {
  this.timeout(60_000);
  let root: string;
  const servers: Server[] = [];
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
    root = mkdtempSync(join(base, 'hostile-remote-chain-'));
  });
  afterEach(() => {
    for (const s of servers.splice(0)) s.close();
    rmSync(root, { recursive: true, force: true });
  });

  const storeOf = () => join(root, '.logbook', 'conversations', CONVERSATION);

  for (const [name, order] of ORDERS) {
    it(`show lists the held action, the log is one line, the server's parents are kept: ${name}`, async () => {
      const e = heldEvents();
      const sent = order(e);
      const s = await standIn({ frames: () => sent.map((x) => JSON.stringify(x)) });
      servers.push(s.server);
      // Every action asks (in risky mode Logbook's rules would approve the `ls` themselves).
      const r = await runCli(['run', '--remote', s.url, '--confirm', 'always', '--no-input', 'list files'], {
        env,
        cwd: root,
      });
      assert.equal(r.code, 2, r.stdout + r.stderr);

      const shown = await runCli(['show', storeOf(), '--json'], { env });
      assert.equal(shown.code, 0, shown.stderr);
      const held = (JSON.parse(shown.stdout) as { pending_actions: { id?: string }[] }).pending_actions;
      assert.deepEqual(
        held.map((a) => a.id),
        [e.action.id],
      );

      // One line in arrival order, each record naming the server's parent beside its own.
      const store = await openConversationStore(storeOf());
      const log = (await store.slice()) as unknown as Ev[];
      await store.close();
      assert.deepEqual(
        log.map((x) => x.id),
        sent.map((x) => x.id),
      );
      log.forEach((x, i) => {
        assert.equal(x.parent_id ?? null, i === 0 ? null : log[i - 1]!.id);
        const from = x.received_from as { server?: string; parent_id?: unknown };
        assert.equal(from.server, s.url);
        assert.equal(from.parent_id ?? null, sent[i]!.parent_id ?? null);
      });

      const at = await runCli(['show', storeOf(), '--at', e.action.id, '--json'], { env });
      assert.equal(at.code, 0, at.stderr);
      const heldAt = (JSON.parse(at.stdout) as { pending_actions: { id?: string }[] }).pending_actions;
      assert.deepEqual(
        heldAt.map((a) => a.id),
        [e.action.id],
      );

      const verified = await runCli(['verify', storeOf()], { env });
      assert.equal(verified.code, 0, verified.stdout + verified.stderr);

      const out = join(root, 'exported');
      const exported = await runCli(['export-openhands', storeOf(), out], { env });
      assert.equal(exported.code, 0, exported.stdout + exported.stderr);
      // The export is the same line, without the mark the SDK's models forbid; imported back, the
      // mark (the server's parent with it) is there again, as signed.
      const files = readdirSync(join(out, 'events')).sort();
      const written = files.map((f) => JSON.parse(readFileSync(join(out, 'events', f), 'utf8')) as Ev);
      assert.deepEqual(
        written.map((x) => [x.id, x.parent_id ?? null, 'received_from' in x]),
        sent.map((x, i) => [x.id, i === 0 ? null : sent[i - 1]!.id, false]),
      );
      const back = join(root, 'reimported');
      const imported = await runCli(['import-openhands', out, '--store', back], { env });
      assert.equal(imported.code, 0, imported.stdout + imported.stderr);
      const again = await runCli(['verify', back], { env });
      assert.equal(again.code, 0, again.stdout + again.stderr);
      const marks = new Map(
        readdirSync(join(back, 'segments'))
          .sort()
          .flatMap((f) => readFileSync(join(back, 'segments', f), 'utf8').split('\n'))
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l.split(' ').slice(3).join(' ')) as Ev)
          .map((x) => [x.id, (x.received_from as { parent_id?: unknown } | undefined)?.parent_id ?? null]),
      );
      assert.deepEqual(
        sent.map((x) => marks.get(x.id)),
        sent.map((x) => x.parent_id ?? null),
      );
    });
  }
});
