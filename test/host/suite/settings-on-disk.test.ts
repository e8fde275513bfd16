// Editing settings.json on disk (in another editor, with a script, or by the agent itself) is
// picked up like a change in the Settings UI: the extension hears onDidChangeConfiguration and the
// next model request goes to the new endpoint, for the user settings and, once the user accepted
// it, the workspace's own.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { startScriptedLlm, type Scenario, type ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel, workspaceRoot } from './helpers';

const answers = (name: string): Scenario => ({
  name,
  turns: [],
  fallback: {
    toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: `${name} answered.` } }],
  },
});

/** Resolves once VS Code reports `logbook.model.baseURL` changed and reads `expected`. */
function baseUrlBecomes(expected: string, file: string, timeoutMs = 10_000): Promise<void> {
  const read = () => vscode.workspace.getConfiguration('logbook').get<string>('model.baseURL');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      listener.dispose();
      reject(
        new Error(
          `${file} was edited on disk, but in ${timeoutMs / 1000} s no onDidChangeConfiguration for ` +
            `logbook.model.baseURL brought ${expected}; getConfiguration still reads ${read()}`,
        ),
      );
    }, timeoutMs);
    const listener = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('logbook.model.baseURL') && read() === expected) {
        clearTimeout(timer);
        listener.dispose();
        resolve();
      }
    });
  });
}

async function runTask(task: string): Promise<void> {
  const { service } = await logbook();
  const id = await vscode.commands.executeCommand<string>('logbook.startTask', task);
  const session = await service.session(id);
  assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
}

describe('settings.json edited on disk', () => {
  // The test instance keeps user data next to the workspace copy (scripts/code-server/instance.mjs).
  const userSettings = join(dirname(workspaceRoot()), 'udd', 'User', 'settings.json');
  const workspaceSettings = join(workspaceRoot(), '.vscode', 'settings.json');
  let first: ScriptedLlm | undefined;
  let second: ScriptedLlm | undefined;

  afterEach(async () => {
    rmSync(join(workspaceRoot(), '.vscode'), { recursive: true, force: true });
    await first?.close(); // restores the user settings through the configuration API
    await second?.close();
    first = second = undefined;
  });

  it('a baseUrl edited in the user settings.json on disk takes the next model request', async () => {
    assert.match(readFileSync(userSettings, 'utf8'), /workbench\.startupEditor/, 'the real user settings');
    first = await scriptedModel(answers('first'));
    second = await startScriptedLlm({ scenario: answers('second') });
    await runTask('Which model answers?');
    assert.equal(first.completionBodies().length, 1);

    const settings = JSON.parse(readFileSync(userSettings, 'utf8')) as Record<string, unknown>;
    assert.equal(settings['logbook.model.baseURL'], first.baseUrl);
    const changed = baseUrlBecomes(second.baseUrl, userSettings);
    writeFileSync(
      userSettings,
      JSON.stringify({ ...settings, 'logbook.model.baseURL': second.baseUrl }, null, 2),
    );
    await changed;

    await runTask('Which model answers now?');
    assert.equal(second.completionBodies().length, 1, 'the request went to the endpoint edited on disk');
    assert.equal(first.completionBodies().length, 1, 'the old endpoint got no more requests');
  });

  it("a baseUrl written into the workspace's .vscode/settings.json on disk is ignored until accepted, then overrides the user's; its removal restores it", async () => {
    first = await scriptedModel(answers('user'));
    second = await startScriptedLlm({ scenario: answers('workspace') });
    assert.ok(!existsSync(workspaceSettings), 'the sample workspace starts without .vscode/settings.json');

    let changed = baseUrlBecomes(second.baseUrl, workspaceSettings);
    mkdirSync(dirname(workspaceSettings), { recursive: true });
    writeFileSync(workspaceSettings, JSON.stringify({ 'logbook.model.baseURL': second.baseUrl }, null, 2));
    await changed;
    await runTask('Which model answers in this workspace?');
    assert.equal(first.completionBodies().length, 1, "the endpoint guards the user: the user's answers");
    assert.equal(second.completionBodies().length, 0);

    await vscode.commands.executeCommand('logbook.acceptWorkspaceSetting', 'model.baseURL');
    await runTask('And once the user accepted it?');
    assert.equal(second.completionBodies().length, 1);
    assert.equal(first.completionBodies().length, 1);

    changed = baseUrlBecomes(first.baseUrl, workspaceSettings);
    rmSync(workspaceSettings);
    await changed;
    await runTask('And without the workspace setting?');
    assert.equal(first.completionBodies().length, 2);
    assert.equal(second.completionBodies().length, 1);
  });
});
