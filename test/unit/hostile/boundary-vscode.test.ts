// A hostile model against what one editor window shares between its conversations (issue 47): the
// empty read-only folders the sandbox makes where `.vscode` or `.logbook` do not exist yet are
// counted per process, so a window whose first conversation made them still "holds" them after the
// user deleted the stray empty folders. The next conversation's sandbox must make them again, or
// its command creates `.vscode/tasks.json` (runs at folder open) and an act-mode agent definition.
// And a folder removed while a shell runs takes that shell's read-only mount with it: the next
// command must run in a new shell that holds it again.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { outsideFolder } from '../../support/outside-folder';
import { sandboxedShell } from '../../support/sandboxed-shell';

describe('hostile commands: held folders the user removed while a sandbox of the window holds them (issue 47)', function () {
  this.timeout(60_000);

  it('the next conversation holds them again: .vscode/tasks.json and .logbook/agents/helper.md cannot be made', async () => {
    const base = outsideFolder('boundary-vscode-');
    const ws = join(base, 'ws');
    const home = join(base, 'home');
    for (const d of [ws, home]) mkdirSync(d, { recursive: true });
    const first = sandboxedShell(ws, home);
    const second = sandboxedShell(ws, home);
    try {
      await first.run('echo started');
      assert.ok(existsSync(join(ws, '.vscode')), 'the first shell holds an empty .vscode');
      // The user deletes the empty folders that appeared in the workspace.
      rmdirSync(join(ws, '.vscode'));
      rmdirSync(join(ws, '.logbook'));
      const r = await second.run(
        "mkdir -p .logbook/agents .vscode; printf -- '---\\nmode: act\\n---\\n' > .logbook/agents/helper.md; echo '{}' > .vscode/tasks.json; echo done",
      );
      assert.deepEqual(
        {
          agent: existsSync(join(ws, '.logbook', 'agents', 'helper.md')),
          tasks: existsSync(join(ws, '.vscode', 'tasks.json')),
        },
        { agent: false, tasks: false },
        r.output,
      );
    } finally {
      await second.dispose();
      await first.dispose();
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('the same conversation: a held folder removed between two commands is held again by a new shell, and the output says so', async () => {
    const base = outsideFolder('boundary-vscode-');
    const ws = join(base, 'ws');
    const home = join(base, 'home');
    for (const d of [ws, home]) mkdirSync(d, { recursive: true });
    const sh = sandboxedShell(ws, home);
    try {
      await sh.run('echo started');
      // The user deletes the empty folder while the shell runs: its read-only mount goes with it.
      rmdirSync(join(ws, '.vscode'));
      const r = await sh.run("mkdir -p .vscode && echo '{}' > .vscode/tasks.json; echo done");
      assert.deepEqual(
        {
          tasks: existsSync(join(ws, '.vscode', 'tasks.json')),
          said: /Folders Logbook holds read-only were removed: .*\.vscode/.test(r.output),
        },
        { tasks: false, said: true },
        r.output,
      );
    } finally {
      await sh.dispose();
      rmSync(base, { recursive: true, force: true });
    }
  });
});
