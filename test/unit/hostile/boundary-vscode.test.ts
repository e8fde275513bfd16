// A hostile model against what one editor window shares between its conversations (issue 47): the
// empty read-only folders the sandbox makes where `.vscode` or `.logbook` do not exist yet are
// counted per process, so a window whose first conversation made them still "holds" them after the
// user deleted the stray empty folders. The next conversation's sandbox must make them again, or
// its command creates `.vscode/tasks.json` (runs at folder open) and an act-mode agent definition.
// And a folder removed while a shell runs takes that shell's read-only mount with it: the next
// command must run in a new shell that holds it again. Another process (a second window, a
// `logbook run` on the same workspace) removes the placeholder it made once it is done with it,
// whether or not this process's shell holds that folder too.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { outsideFolder } from '../../support/outside-folder';
import { sandboxedShell } from '../../support/sandboxed-shell';

/** A workspace and a home in a folder the sandbox could reach (not under /tmp, which it replaces). */
function workspaceAndHome() {
  const base = outsideFolder('boundary-vscode-');
  const ws = join(base, 'ws');
  const home = join(base, 'home');
  for (const d of [ws, home]) mkdirSync(d, { recursive: true });
  return { base, ws, home };
}

const WRITE_TASKS_JSON = "mkdir -p .vscode && echo '{}' > .vscode/tasks.json; echo done";

/** The next command, a hostile one, runs in a shell that holds `.vscode` again, and says why. */
async function assertHeldAgain(sh: ReturnType<typeof sandboxedShell>, ws: string): Promise<void> {
  const r = await sh.run(WRITE_TASKS_JSON);
  assert.deepEqual(
    {
      tasks: existsSync(join(ws, '.vscode', 'tasks.json')),
      said: /Folders Logbook holds read-only were removed: .*\.vscode/.test(r.output),
    },
    { tasks: false, said: true },
    r.output,
  );
}

describe('hostile commands: held folders the user removed while a sandbox of the window holds them (issue 47)', function () {
  this.timeout(60_000);

  it('the next conversation holds them again: .vscode/tasks.json and .logbook/agents/helper.md cannot be made', async () => {
    const { base, ws, home } = workspaceAndHome();
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
    const { base, ws, home } = workspaceAndHome();
    const sh = sandboxedShell(ws, home);
    try {
      await sh.run('echo started');
      // The user deletes the empty folder while the shell runs: its read-only mount goes with it.
      rmdirSync(join(ws, '.vscode'));
      await assertHeldAgain(sh, ws);
    } finally {
      await sh.dispose();
      rmSync(base, { recursive: true, force: true });
    }
  });

  // What another process's placeholder looks like from here: an empty folder this process did not make.
  const anotherProcessMade = (ws: string) => mkdirSync(join(ws, '.vscode'));

  it("another process's placeholder removed while the shell runs: the next command runs in a shell that holds it again", async () => {
    const { base, ws, home } = workspaceAndHome();
    anotherProcessMade(ws);
    const sh = sandboxedShell(ws, home);
    try {
      await sh.run('echo started');
      rmdirSync(join(ws, '.vscode')); // that process is done with it
      await assertHeldAgain(sh, ws);
    } finally {
      await sh.dispose();
      rmSync(base, { recursive: true, force: true });
    }
  });

  it("another process's placeholder removed while the sandbox is mounting it: the shell starts again and holds it", async () => {
    const { base, ws, home } = workspaceAndHome();
    anotherProcessMade(ws);
    const sh = sandboxedShell(ws, home);
    // The other process removes it after this launch planned its mounts, before bubblewrap made them.
    const launch = sh.sandbox.launch.bind(sh.sandbox);
    let launches = 0;
    sh.sandbox.launch = async (req) => {
      const planned = await launch(req);
      if (++launches === 1) rmdirSync(join(ws, '.vscode'));
      return planned;
    };
    try {
      const r = await sh.run(WRITE_TASKS_JSON);
      assert.deepEqual(
        { launches, tasks: existsSync(join(ws, '.vscode', 'tasks.json')), done: /done/.test(r.output) },
        { launches: 2, tasks: false, done: true },
        r.output,
      );
    } finally {
      await sh.dispose();
      rmSync(base, { recursive: true, force: true });
    }
  });
});
