// Logbook: Show Diagnostics, Clean Up Old Checkpoints, Get Started and the first-install
// walkthrough, in a real VS Code: the report of this window's model, identity and storage, and
// the clean-up of a conversation's checkpoints once they are old.
import * as assert from 'node:assert/strict';
import { readdirSync, utimesSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DiagnosticsReport } from '../../../src/core/diagnostics/report';
import type { ScriptedLlm } from '../../support/llm-server';
import { checkpointsRoot } from '../../../src/host/vscode/diagnostics/collect-diagnostics';
import { logbook, scriptedModel, until } from './helpers';

const KEY = 'sk-diagnostics-host-never-shown-5150';

function rows(report: DiagnosticsReport, id: string) {
  const s = report.sections.find((x) => x.id === id);
  assert.ok(s, `section ${id}`);
  return s.rows;
}

describe('Logbook: Show Diagnostics', function () {
  this.timeout(120_000);
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await vscode.commands.executeCommand('logbook.setApiKey', '');
    await llm?.close();
    llm = undefined;
  });

  it('shows the endpoint, the model, the identity and each conversation by its title; never the key', async () => {
    llm = await scriptedModel({
      name: 'host-diagnostics',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'diagnostics note' },
          reply: {
            toolCalls: [
              {
                id: 'call_note',
                name: 'file_editor',
                arguments: {
                  command: 'create',
                  path: 'diagnostics-note.txt',
                  // Large enough to be among the biggest conversations the report lists by name
                  // (the others the host tests leave are smaller), whatever ran before.
                  file_text: 'note\n'.repeat(60_000),
                  security_risk: 'LOW',
                  summary: 'note',
                },
              },
            ],
          },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Written.' } },
      ],
    });
    await vscode.commands.executeCommand('logbook.setApiKey', KEY);
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>(
      'logbook.startTask',
      'write the diagnostics note',
    );
    await until(() => service.list().find((c) => c.id === id)?.status === 'finished', 'the task to finish');

    const report = await vscode.commands.executeCommand<DiagnosticsReport>('logbook.showDiagnostics');
    assert.ok(!JSON.stringify(report).includes(KEY), 'the key is never shown');
    assert.deepEqual(
      report.sections.map((s) => s.title),
      ['Sandbox', 'Workspace settings', 'Model', 'MCP servers', 'Signing identity', 'Storage'],
    );
    const model = rows(report, 'model');
    assert.equal(model.find((r) => r.label === 'Endpoint')?.status, 'ok', JSON.stringify(model));
    assert.deepEqual(
      model.find((r) => r.label === 'API key'),
      {
        label: 'API key',
        value: 'set (never shown)',
        status: 'ok',
      },
    );
    assert.match(model.find((r) => r.label === 'Model')!.value, /^scripted-model: offered by the endpoint$/);
    const identity = rows(report, 'signing')[0]!;
    assert.equal(identity.status, 'ok');
    assert.match(identity.value, /^did:key:z6Mk/);
    const title = service.list().find((c) => c.id === id)!.title!;
    const storage = rows(report, 'storage');
    assert.ok(
      storage.some((r) => r.label === title && /\d/.test(r.value)),
      `the conversation "${title}" is listed: ${JSON.stringify(storage)}`,
    );

    // The view came up in the Logbook sidebar.
    await vscode.commands.executeCommand('logbook.diagnostics.focus');
  });

  it('cleans up only checkpoints past the age, asking unless told it is confirmed; the conversation stays', async () => {
    const { service } = await logbook();
    const root = checkpointsRoot(service);
    const refs = readdirSync(root).flatMap((store) => {
      const dir = join(root, store, 'git', 'refs', 'logbook', 'conversations');
      return existsSync(dir) ? readdirSync(dir).map((id) => ({ id, file: join(dir, id) })) : [];
    });
    const live = refs.find((r) => service.list().some((c) => c.id === r.id));
    assert.ok(live, 'a conversation of this window holds checkpoints');

    const none = await vscode.commands.executeCommand<{ released: number }>('logbook.cleanUpCheckpoints', {
      confirmed: true,
    });
    assert.ok(existsSync(live.file), 'a fresh checkpoint is not old');
    assert.equal(typeof none.released, 'number');

    const old = new Date(Date.now() - 60 * 24 * 60 * 60 * 1000);
    utimesSync(live.file, old, old);
    const done = await vscode.commands.executeCommand<{ released: number }>('logbook.cleanUpCheckpoints', {
      confirmed: true,
    });
    assert.ok(done.released >= 1);
    assert.ok(!existsSync(live.file), 'its checkpoints were released');
    assert.ok(existsSync(join(service.root, live.id)), 'the conversation itself stays');
  });
});

describe('the walkthrough on first install', () => {
  it('opens once when the chat is not in view (e2e/first-screen shows it is left closed when it is)', async function () {
    this.timeout(60_000);
    const api = await logbook();
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    const walkthroughTab = () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => /Walkthrough/.test(t.label));
    // A test host never opens it by itself (it would take the focus other suites expect), so this
    // is the first time here. (e2e/walkthrough.test.ts shows the walkthrough itself.)
    assert.equal(await api.openWalkthroughOnce(), 'opened');
    await until(() => walkthroughTab()?.isActive === true, 'the walkthrough tab, active');
    assert.equal(await api.openWalkthroughOnce(), 'shown before');
    assert.equal(await api.openWalkthroughOnce(), 'shown before');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
