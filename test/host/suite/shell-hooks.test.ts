// Hooks a command leaves in the agent's shell, in real VS Code terminals. In the pseudoterminal
// fallback (a bash Logbook starts), every hook is undone after the command that planted it, so a
// later `ls` or `echo` runs only itself. In a terminal with shell integration (the user's own
// shell) the planting command is refused and nothing of it runs.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { IntegratedTerminalPort } from '../../../src/host/vscode/ports/terminal-port';

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

describe('shell hooks: the pseudoterminal fallback undoes them after every command', function () {
  this.timeout(120_000);
  before(() => setShellIntegration(false));
  after(() => setShellIntegration(undefined));

  it('a later ls and echo run only themselves', async () => {
    const port = new IntegratedTerminalPort({ title: 'hooks fallback', shellIntegrationTimeoutMs: 5_000 });
    const mark = path.join(workspaceRoot(), `hook-mark-${randomUUID().slice(0, 8)}`);
    try {
      for (const plant of hooks(mark)) {
        const planted = await port.run(plant, { timeoutMs: 20_000 });
        assert.equal(port.mode, 'pseudoterminal');
        assert.equal(planted.timedOut, false, plant);
        rmSync(mark, { force: true });
        const ls = await port.run('ls -d .', { timeoutMs: 20_000 });
        const echo = await port.run('echo said', { timeoutMs: 20_000 });
        assert.deepEqual([ls.output.trim(), echo.output.trim()], ['.', 'said'], plant);
        assert.equal(existsSync(mark), false, `the hook of ${plant} fired in a later command`);
      }
      const kept = await port.run(`readonly PS1='$(touch ${mark})'`, { timeoutMs: 20_000 });
      assert.match(kept.output, /replaced the shell/);
      rmSync(mark, { force: true });
      const after = await port.run('echo fresh', { timeoutMs: 20_000 });
      assert.equal(after.output.trim(), 'fresh');
      assert.equal(existsSync(mark), false, 'the readonly PS1 fired after its shell was replaced');
    } finally {
      port.dispose();
      rmSync(mark, { force: true });
    }
  });
});

describe('shell hooks: the user’s shell with shell integration refuses them', function () {
  this.timeout(120_000);

  it('does not run a planting command, and says why', async () => {
    const port = new IntegratedTerminalPort({ title: 'hooks integrated', shellIntegrationTimeoutMs: 15_000 });
    const mark = path.join(workspaceRoot(), `hook-mark-${randomUUID().slice(0, 8)}`);
    try {
      const first = await port.run('echo ready', { timeoutMs: 20_000 });
      assert.equal(port.mode, 'shell-integration');
      assert.equal(first.output.trim(), 'ready');
      for (const plant of hooks(mark)) {
        await assert.rejects(
          port.run(`touch ${mark}; ${plant}`, { timeoutMs: 20_000 }),
          /Not run: the command .*bash -c/,
        );
        assert.equal(existsSync(mark), false, `${plant} ran although it was refused`);
      }
      const ls = await port.run('ls -d .', { timeoutMs: 20_000 });
      assert.equal(ls.output.trim(), '.');
      assert.equal(existsSync(mark), false);
      const child = await port.run(`bash -c "PS1=x; trap 'echo t' DEBUG; builtin echo child"`, {
        timeoutMs: 20_000,
      });
      assert.match(child.output, /child/, 'a child shell may set what it likes: it ends with the command');
    } finally {
      port.dispose();
      rmSync(mark, { force: true });
    }
  });
});

describe('shell hooks: the user’s shell refuses what it cannot read, and reads what it sources', function () {
  this.timeout(180_000);

  it('refuses eval of a variable, and runs source of a venv activate', async () => {
    const venv = path.join(workspaceRoot(), `hook-venv-${randomUUID().slice(0, 8)}`);
    const made = spawnSync('python3', ['-m', 'venv', '--without-pip', venv], { timeout: 60_000 });
    assert.equal(made.status, 0, `python3 -m venv: ${made.stderr?.toString() ?? made.error?.message}`);
    // A function named like a program on PATH counts as a hook (it would shadow it); some setups
    // put a `deactivate` program there (pyenv-virtualenv), so the shell gets a PATH without one.
    const PATH = (process.env.PATH ?? '')
      .split(path.delimiter)
      .filter((dir) => !safeList(dir).includes('deactivate'))
      .join(path.delimiter);
    const port = new IntegratedTerminalPort({
      title: 'hooks sourced',
      shellIntegrationTimeoutMs: 15_000,
      env: { PATH },
    });
    const mark = path.join(workspaceRoot(), `hook-mark-${randomUUID().slice(0, 8)}`);
    try {
      const first = await port.run(`x='PS1="\\$(touch ${mark})"'; echo ready`, { timeoutMs: 20_000 });
      assert.equal(port.mode, 'shell-integration');
      assert.equal(first.output.trim(), 'ready');
      await assert.rejects(
        port.run(`touch ${mark}; eval "$x"`, { timeoutMs: 20_000 }),
        /Not run: the command runs code built at run time \(eval \$\{x\}\).*bash -c/,
      );
      assert.equal(existsSync(mark), false, 'the refused eval ran');

      const activated = await port.run(`source ${venv}/bin/activate && echo "in $VIRTUAL_ENV"`, {
        timeoutMs: 20_000,
      });
      assert.equal(activated.output.trim(), `in ${venv}`);
      const python = await port.run('command -v python', { timeoutMs: 20_000 });
      assert.equal(python.output.trim(), path.join(venv, 'bin', 'python'));
      const deactivated = await port.run('deactivate && echo "out ${VIRTUAL_ENV:-}"', { timeoutMs: 20_000 });
      assert.equal(deactivated.output.trim(), 'out');
    } finally {
      port.dispose();
      rmSync(mark, { force: true });
      rmSync(venv, { recursive: true, force: true });
    }
  });
});

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
