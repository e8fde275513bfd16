// A conversation's "Logbook: …" terminal tab goes when its run ends, so tabs do not pile up one per
// conversation; the next command opens a tab again where the shell was (`cd sub` is kept).
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel, until, workspaceRoot } from './helpers';

const logbookTabs = (title: string) => vscode.window.terminals.filter((t) => t.name === `Logbook: ${title}`);

describe("A conversation's terminal tab", function () {
  this.timeout(120_000);
  let llm: ScriptedLlm | undefined;
  let ws: string | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    if (ws) rmSync(ws, { recursive: true, force: true });
    ws = undefined;
  });

  it('closes when the task finishes, and the next command opens one where the shell was', async () => {
    const { service } = await logbook();
    const name = `tabs-${randomUUID().slice(0, 8)}`;
    ws = join(workspaceRoot(), name);
    mkdirSync(ws);
    const terminal = (id: string, command: string) => ({
      id,
      name: 'terminal',
      arguments: { command, security_risk: 'LOW', summary: command },
    });
    const sub = join(ws, 'sub');
    llm = await scriptedModel({
      name: 'host-terminal-tabs',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'go into sub' },
          reply: { toolCalls: [terminal('call_cd', `mkdir -p '${sub}' && cd '${sub}'`)] },
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'exit code' }, reply: { content: 'In sub now.' } },
        {
          match: { lastRole: 'user', lastContentIncludes: 'where are you' },
          reply: { toolCalls: [terminal('call_pwd', 'pwd')] },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'There.' } },
      ],
    });
    await vscode.workspace
      .getConfiguration('logbook')
      .update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', `go into sub ${name}`);
    const session = await service.session(id);
    try {
      const title = session.conversation.state.title ?? '';
      assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
      await until(() => logbookTabs(title).length === 0, 'the tab to close once the task finished');

      await session.send('where are you');
      assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
      const events = await session.conversation.events();
      const last = events
        .filter((e) => e.kind === 'ObservationEvent' && e.observation.kind === 'TerminalObservation')
        .at(-1);
      assert.ok(last && last.kind === 'ObservationEvent');
      assert.ok(JSON.stringify(last.observation.content).includes(realpathSync(sub)), 'it ran in sub');
      await until(() => logbookTabs(title).length === 0, 'the second tab to close too');
    } finally {
      await vscode.workspace
        .getConfiguration('logbook')
        .update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
      await service.delete(id);
    }
  });
});
