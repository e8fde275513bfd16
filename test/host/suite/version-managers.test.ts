// A version manager's shell setup in the editor's terminal, sandboxed: pyenv's init rehashes, which
// writes into its shims folder, and the sandbox's home is read-only, so the user's startup file
// complains ("cannot rehash: ... isn't writable") every time a shell starts. The terminal's login
// shell (the fallback) and the integrated terminal's own shell both read that file; neither lets
// the complaint start a command's output (what the chat card and the model see). The rc says it
// complained through a variable, so the check cannot pass on an rc that stayed quiet.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { CommandSandbox, probeSandbox } from '../../../src/host/node/sandbox';
import { IntegratedTerminalPort, type TerminalMode } from '../../../src/host/vscode/ports/terminal-port';
import { EXTENSION_ID, workspaceRoot } from './helpers';

/** A home outside /tmp (the sandbox's own) and outside the workspace: the repository's test-results/. */
const root = join(
  vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath,
  'test-results',
  `version-managers-${process.pid}`,
);
const home = join(root, 'home');

/** The shape of `eval "$(pyenv init -)"`, and of rbenv's and nodenv's: a root, shims, a rehash. */
const RC = [
  'export FAKEENV_ROOT="$HOME/.fakeenv"',
  'export PATH="$FAKEENV_ROOT/shims:$PATH"',
  '# the rehash: it takes a lock file in its shims folder, and says so when it cannot',
  'if ( set -o noclobber; : > "$FAKEENV_ROOT/shims/.fakeenv-shim" ) 2>/dev/null; then',
  '  rm -f "$FAKEENV_ROOT/shims/.fakeenv-shim"',
  'else',
  '  echo "fakeenv: cannot rehash: $FAKEENV_ROOT/shims isn\'t writable" >&2',
  '  export FAKEENV_COMPLAINED=yes',
  'fi',
  // What nvm's and asdf's setup print on stdout where they cannot write: the other stream.
  'echo "fakeenv: shims not refreshed"',
  '',
].join('\n');

async function setShellIntegration(enabled: boolean | undefined): Promise<void> {
  await vscode.workspace
    .getConfiguration('terminal.integrated')
    .update('shellIntegration.enabled', enabled, vscode.ConfigurationTarget.Global);
}

for (const mode of ['shell-integration', 'pseudoterminal'] as const satisfies readonly TerminalMode[]) {
  describe(`version managers' shell setup in the sandboxed ${mode} terminal`, function () {
    this.timeout(60_000);
    let sandbox: CommandSandbox | undefined;
    let port: IntegratedTerminalPort | undefined;

    before(async function () {
      if (!probeSandbox().available) this.skip();
      mkdirSync(join(home, '.fakeenv', 'shims'), { recursive: true });
      writeFileSync(join(home, '.bashrc'), RC);
      // A login shell (the fallback's bash -l) reads .profile, which reads .bashrc as distributions' does.
      writeFileSync(join(home, '.profile'), '[ -n "$BASH_VERSION" ] && . "$HOME/.bashrc"\n');
      if (mode === 'pseudoterminal') await setShellIntegration(false);
      sandbox = new CommandSandbox({
        setting: 'required',
        allowedHosts: () => [],
        homeReadable: ['.bashrc', '.profile', '.fakeenv'],
        hostEnv: { ...process.env, HOME: home },
      });
      port = new IntegratedTerminalPort({
        title: `version managers ${mode}`,
        shellIntegrationTimeoutMs: 10_000,
        sandbox: {
          sandbox,
          workspaces: () => [workspaceRoot()],
          readOnly: () => false,
          launcherDir: join(root, 'launchers'),
        },
      });
    });

    after(async () => {
      port?.dispose();
      await sandbox?.dispose();
      if (mode === 'pseudoterminal') await setShellIntegration(undefined);
      rmSync(root, { recursive: true, force: true });
    });

    it('the rc ran and complained, and no command output begins with its complaint', async () => {
      const outputs: string[] = [];
      for (const command of ['echo "rc: ${FAKEENV_COMPLAINED:-quiet}"', 'echo second'])
        outputs.push((await port!.run(command, { timeoutMs: 20_000 })).output.trim());
      assert.equal(port!.mode, mode);
      assert.deepEqual(outputs, ['rc: yes', 'second']);
    });
  });
}
