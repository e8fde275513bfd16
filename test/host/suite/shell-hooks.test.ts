// Hooks a command leaves in the agent's shell, in real VS Code terminals: each command runs in a
// fresh child bash, in the terminal with shell integration and in the pseudoterminal fallback, so
// a hook one command plants is gone with it and a later `ls` or `echo` runs only itself. What the
// command sources still carries its exported variables (a venv's PATH), not its functions.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { IntegratedTerminalPort, type TerminalMode } from '../../../src/host/vscode/ports/terminal-port';

const workspaceRoot = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

async function setShellIntegration(enabled: boolean | undefined): Promise<void> {
  await vscode.workspace
    .getConfiguration('terminal.integrated')
    .update('shellIntegration.enabled', enabled, vscode.ConfigurationTarget.Global);
}

/** Each plants a hook that touches `mark` when it fires. */
const hooks = (mark: string) => [
  `PS1='$(touch ${mark})'`,
  `PROMPT_COMMAND='touch ${mark}'`,
  `trap 'touch ${mark}' DEBUG`,
  `alias ls='touch ${mark}; ls'`,
  `echo() { touch ${mark}; builtin echo "$@"; }`,
  `hash -p /usr/bin/touch ls`,
];

for (const mode of ['shell-integration', 'pseudoterminal'] as const satisfies readonly TerminalMode[]) {
  describe(`shell hooks: the ${mode} terminal runs each command in a fresh shell`, function () {
    this.timeout(120_000);
    before(() => mode === 'pseudoterminal' && setShellIntegration(false));
    after(() => mode === 'pseudoterminal' && setShellIntegration(undefined));

    it('a later ls and echo run only themselves', async () => {
      const port = new IntegratedTerminalPort({ title: `hooks ${mode}`, shellIntegrationTimeoutMs: 15_000 });
      const mark = path.join(workspaceRoot(), `hook-mark-${randomUUID().slice(0, 8)}`);
      try {
        for (const plant of [...hooks(mark), `readonly PS1='$(touch ${mark})'`]) {
          const planted = await port.run(plant, { timeoutMs: 20_000 });
          assert.equal(port.mode, mode);
          assert.equal(planted.timedOut, false, plant);
          rmSync(mark, { force: true });
          const ls = await port.run('ls -d .', { timeoutMs: 20_000 });
          const echo = await port.run('echo said', { timeoutMs: 20_000 });
          assert.deepEqual([ls.output.trim(), echo.output.trim()], ['.', 'said'], plant);
          assert.equal(existsSync(mark), false, `the hook of ${plant} fired in a later command`);
        }
      } finally {
        port.dispose();
        rmSync(mark, { force: true });
      }
    });
  });
}

describe('shell hooks: a sourced venv carries its variables', function () {
  this.timeout(180_000);

  it('runs source of a venv activate, and its PATH and VIRTUAL_ENV carry', async () => {
    const venv = path.join(workspaceRoot(), `hook-venv-${randomUUID().slice(0, 8)}`);
    const made = spawnSync('python3', ['-m', 'venv', '--without-pip', venv], { timeout: 60_000 });
    assert.equal(made.status, 0, `python3 -m venv: ${made.stderr?.toString() ?? made.error?.message}`);
    const port = new IntegratedTerminalPort({ title: 'hooks sourced', shellIntegrationTimeoutMs: 15_000 });
    try {
      const activated = await port.run(`source ${venv}/bin/activate && echo "in $VIRTUAL_ENV"`, {
        timeoutMs: 20_000,
      });
      assert.equal(port.mode, 'shell-integration');
      assert.equal(activated.output.trim(), `in ${venv}`);
      assert.ok(activated.carried?.includes('VIRTUAL_ENV'), String(activated.carried));
      const python = await port.run(
        'command -v python; [ "$(type -t deactivate)" = function ] || echo no-function',
        {
          timeoutMs: 20_000,
        },
      );
      assert.deepEqual(python.output.trim().split('\n'), [path.join(venv, 'bin', 'python'), 'no-function']);
    } finally {
      port.dispose();
      rmSync(venv, { recursive: true, force: true });
    }
  });
});
