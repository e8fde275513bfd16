// A PreToolUse hook of the user's logbook.hooks in the editor: the hook (a real bash script, run
// outside the sandbox) denies `rm -rf`; the command does not run, and the card the chat receives
// for the action carries the hook's reason. The hook's run is in the conversation's log.
import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { chatTask, scriptedModel, until, workspaceRoot } from './helpers';

const KEEP = 'hooks-keep.txt';

describe('hooks in the editor', function () {
  this.timeout(120_000);
  let llm: ScriptedLlm | undefined;
  let scripts: string | undefined;
  const cfg = () => vscode.workspace.getConfiguration('logbook');
  after(async () => {
    await llm?.close();
    await cfg().update('hooks', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    rmSync(join(workspaceRoot(), KEEP), { force: true });
    if (scripts) rmSync(scripts, { recursive: true, force: true });
  });

  it("a PreToolUse hook denies rm -rf: nothing is removed, and the chat shows the hook's reason", async () => {
    scripts = mkdtempSync(join(tmpdir(), 'logbook-host-hooks-'));
    const hook = join(scripts, 'deny-rm.sh');
    writeFileSync(
      hook,
      '#!/usr/bin/env bash\ninput=$(cat)\nif printf "%s" "$input" | grep -q "rm -rf"; then echo "rm -rf is against the team policy" >&2; exit 2; fi\n',
    );
    chmodSync(hook, 0o755);
    writeFileSync(join(workspaceRoot(), KEEP), 'kept\n');
    await cfg().update(
      'hooks',
      { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] },
      vscode.ConfigurationTarget.Global,
    );
    await cfg().update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
    llm = await scriptedModel({
      name: 'hooks-deny',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              {
                id: 'call_rm',
                name: 'terminal',
                arguments: { command: `rm -rf ${KEEP}`, security_risk: 'LOW', summary: 'clean up' },
              },
            ],
          },
        },
        {
          match: { lastRole: 'tool' },
          reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
        },
      ],
    });
    const { view, controller, session } = await chatTask('clean up');
    try {
      await until(() => llm!.remainingTurns() === 0, 'the model read the refusal and finished');
      assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
      assert.ok(existsSync(join(workspaceRoot(), KEEP)), 'the hook did not stop rm -rf');
      const shown = JSON.stringify(view.posted);
      assert.match(shown, /Blocked by the hook `[^`]*deny-rm\.sh`: rm -rf is against the team policy/);
      const runs = (await session.conversation.events()).filter(
        (e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'hook_run',
      );
      assert.equal(runs.length, 1);
    } finally {
      controller.dispose();
    }
  });
});
