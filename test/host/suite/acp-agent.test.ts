// An external ACP agent in the chat (Logbook: Start Agent Task with…), in the real extension host:
// the small test agent of test/support/acp-write-agent.cjs runs in place of the model. Its write
// waits for Confirm as a diff of the proposed file, its permission request is the chat's to
// reject, and its command runs in the conversation's integrated terminal. The header names it.
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, holdsWithin, logbook, workspaceRoot } from './helpers';

const FILE = 'acp-agent-wrote.txt';
const agentScript = () =>
  join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'test', 'support', 'acp-write-agent.cjs');
const cfg = () => vscode.workspace.getConfiguration('logbook');

/** What the agent said last (its message ends each turn). */
async function lastAgentText(events: { event: unknown }[]): Promise<string> {
  const said = events
    .map((e) => e.event as { kind?: string; source?: string; llm_message?: { content?: unknown } })
    .filter((e) => e.kind === 'MessageEvent' && e.source === 'agent')
    .map((e) => JSON.stringify(e.llm_message?.content ?? ''));
  return said[said.length - 1] ?? '';
}

/** The first action waiting for the user, once there is one (undefined after `ms`). */
async function pendingAction(
  session: { conversation: { awaitingConfirmation(): { id: string; tool_name: string }[] } },
  ms: number,
) {
  await holdsWithin(() => session.conversation.awaitingConfirmation().length > 0, ms);
  return session.conversation.awaitingConfirmation()[0];
}

async function eventsText(session: {
  conversation: { status: string };
  eventsAfter(n: number): Promise<unknown[]>;
}) {
  return `${session.conversation.status} ${JSON.stringify(await session.eventsAfter(-1)).slice(-3000)}`;
}

describe('An external ACP agent in the chat', function () {
  this.timeout(90_000);

  beforeEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    writeFileSync(join(workspaceRoot(), FILE), 'before\n');
    await cfg().update(
      'acp.agents',
      { writer: { command: process.execPath, args: [agentScript()] } },
      vscode.ConfigurationTarget.Global,
    );
    await cfg().update('confirmation.mode', 'always', vscode.ConfigurationTarget.Global);
  });
  afterEach(async () => {
    await cfg().update('acp.agents', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(join(workspaceRoot(), FILE), { force: true });
  });

  async function start(ask: unknown) {
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>(
      'logbook.startAgentTaskWith',
      'writer',
      JSON.stringify(ask),
    );
    assert.ok(id, 'a conversation started');
    const session = await service.session(id);
    return { service, id, session };
  }

  it('shows its write as a diff, writes it after Confirm, and names the agent in the header', async () => {
    const path = join(workspaceRoot(), FILE);
    const { service, id, session } = await start({ write: { path, content: 'after\n' } });
    assert.deepEqual(session.header().model, { name: 'writer', provider: 'acp' });
    const pending = await pendingAction(session, 30_000);
    assert.ok(pending, `the write waits for Confirm: ${await eventsText(session)}`);
    assert.equal(pending.tool_name, 'file_editor');
    const diffShown = () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .some(
          (t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'logbook-proposed',
        );
    assert.ok(await holdsWithin(diffShown, 10_000), 'the proposed write is shown as a diff');
    assert.equal(readFileSync(path, 'utf8'), 'before\n', 'nothing written before Confirm');
    await service.approve(id, [pending.id]);
    assert.equal(await session.settled(), 'finished');
    assert.equal(readFileSync(path, 'utf8'), 'after\n');
    assert.match(await lastAgentText(await session.eventsAfter(-1)), /write: done/);
  });

  it("in plan mode its write is refused unasked, as Logbook's own would be", async () => {
    const path = join(workspaceRoot(), FILE);
    const { service } = await logbook();
    const session = await service.create('writer');
    await session.setMode('plan');
    await session.send(JSON.stringify({ write: { path, content: 'after\n' } }));
    await session.settled();
    assert.deepEqual(session.conversation.awaitingConfirmation(), [], 'nothing asked');
    assert.equal(readFileSync(path, 'utf8'), 'before\n', 'nothing written');
    assert.match(await lastAgentText(await session.eventsAfter(-1)), /refused: /);
    await service.delete(session.id);
  });

  it('rejects its permission request when the user rejects it', async () => {
    const { service, id, session } = await start({
      ask: { title: 'Delete the build folder', command: 'rm -rf build' },
    });
    const pending = await pendingAction(session, 30_000);
    assert.ok(pending, `the permission request waits for the user: ${await eventsText(session)}`);
    assert.equal(pending.tool_name, 'agent_permission');
    await service.reject(id, [pending.id], 'not now');
    await session.settled();
    assert.match(await lastAgentText(await session.eventsAfter(-1)), /permission: no/);
    // "Continue from here" keeps the conversation the agent's.
    const events = await session.eventsAfter(-1);
    const asked = events.find((e) => (e.event as { source?: string }).source === 'user');
    const { forkId } = await service.forkFrom(id, (asked!.event as { id: string }).id, {
      offerRestore: () => Promise.resolve(false),
    });
    const fork = await service.session(forkId);
    assert.deepEqual(fork.header().model, { name: 'writer', provider: 'acp' });
    await service.delete(forkId);
  });

  it('runs its command in the conversation’s integrated terminal', async () => {
    await cfg().update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
    const { session } = await start({ run: { command: 'echo', args: ['from-the-agent'] } });
    assert.equal(await session.settled(), 'finished');
    assert.ok(session.terminalMode, 'the command ran in the integrated terminal');
    assert.match(await lastAgentText(await session.eventsAfter(-1)), /terminal: exit 0 .*from-the-agent/);
  });
});
