// Hooks in an untrusted workspace (docs/HOOKS.md): a repository's .logbook/hooks.json and
// .claude/settings.json do not run and are not even asked about, nor does a hook of the user's that
// runs a script of the workspace; the user's other hooks do. The run is not refused for them.
import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { chatTask, scriptedModel, until, workspaceRoot } from './helpers';

describe('hooks: untrusted workspace', function () {
  this.timeout(120_000);
  let llm: ScriptedLlm | undefined;
  let marks: string | undefined;
  const cfg = () => vscode.workspace.getConfiguration('logbook');
  const ws = (name: string) => join(workspaceRoot(), name);
  after(async () => {
    await llm?.close();
    await cfg().update('hooks', undefined, vscode.ConfigurationTarget.Global);
    for (const f of ['.logbook', '.claude']) rmSync(ws(f), { recursive: true, force: true });
    if (marks) rmSync(marks, { recursive: true, force: true });
  });

  it("runs none of the repository's hooks, nor one of yours that runs its script; your own others run", async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    marks = mkdtempSync(join(tmpdir(), 'logbook-untrusted-hooks-'));
    const mark = (name: string) => join(marks!, name);
    const prompt = (command: string) => ({ UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }] });
    mkdirSync(ws('.logbook'), { recursive: true });
    mkdirSync(ws('.claude'), { recursive: true });
    writeFileSync(
      ws('.logbook/hooks.json'),
      JSON.stringify({ hooks: prompt(`touch ${mark('logbook-file')}`) }),
    );
    writeFileSync(
      ws('.claude/settings.json'),
      JSON.stringify({ hooks: prompt(`touch ${mark('claude-file')}`) }),
    );
    const planted = ws('.logbook/planted.sh');
    writeFileSync(planted, `#!/usr/bin/env bash\ntouch ${mark('planted')}\n`);
    chmodSync(planted, 0o755);
    await cfg().update(
      'hooks',
      {
        UserPromptSubmit: [
          { hooks: [{ type: 'command', command: `touch ${mark('yours')}` }] },
          { hooks: [{ type: 'command', command: planted }] },
        ],
      },
      vscode.ConfigurationTarget.Global,
    );
    llm = await scriptedModel({ name: 'untrusted-hooks', turns: [{ reply: { content: 'Hello.' } }] });
    const { controller, session } = await chatTask('hello');
    try {
      await until(() => llm!.remainingTurns() === 0, 'the model to answer');
      assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
      assert.equal(session.hooksRefusal, undefined);
      assert.ok(existsSync(mark('yours')), 'your own hook did not run');
      assert.equal(existsSync(mark('logbook-file')), false, '.logbook/hooks.json ran');
      assert.equal(existsSync(mark('claude-file')), false, '.claude/settings.json ran');
      assert.equal(existsSync(mark('planted')), false, "the workspace's script ran");
      const origins = (await session.conversation.events()).flatMap((e) =>
        e.kind === 'ConversationStateUpdateEvent' && e.key === 'hook_run'
          ? [(e.value as { origin: string }).origin]
          : [],
      );
      assert.deepEqual(origins, ['user']);
    } finally {
      controller.dispose();
    }
  });
});
