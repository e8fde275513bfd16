// The agent's commands run inside the sandbox in the real extension host, both ways the terminal
// runs them: the integrated terminal's own shell (its shell integration still active) and the
// pseudoterminal fallback. A write outside the workspace is refused, the editor's processes are
// not visible, a Unix socket outside cannot be reached, and plan mode's shell sees the workspace
// read-only. Every check here fails with logbook.sandbox.mode set to "off".
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { CommandSandbox } from '../../../src/host/node/sandbox';
import { IntegratedTerminalPort, type TerminalMode } from '../../../src/host/vscode/ports/terminal-port';
import { readSandboxSetting } from '../../../src/host/vscode/sandbox/sandbox-settings';
import type { ScriptedLlm } from '../../support/llm-server';
import { EXTENSION_ID, logbook, scriptedModel, workspaceRoot } from './helpers';

/**
 * Outside the workspace, where the sandbox still sees it (read-only): not under /tmp (a private,
 * empty tmpfs inside the sandbox) nor the home folder (empty inside), but in the repository's
 * ignored test-results/.
 */
const outsideDir = join(
  vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath,
  'test-results',
  `outside-host-${process.pid}`,
);
const outsideFile = join(outsideDir, 'outside.txt');
const ORIGINAL = 'written by the test\n';

/**
 * Lines of `ps auxww` (wide: not cut at the terminal's width) naming the editor's own processes:
 * code-server and the browser (both started with --user-data-dir), the extension and pty hosts
 * (bootstrap-fork). The sandbox's own lines name code-server's folder too (PATH, the integration
 * script), so the folder is not the test.
 */
function editorProcesses(psOutput: string): string[] {
  return psOutput.split('\n').filter((l) => /--user-data-dir|bootstrap-fork|--type=/.test(l));
}

async function setShellIntegration(enabled: boolean | undefined): Promise<void> {
  await vscode.workspace
    .getConfiguration('terminal.integrated')
    .update('shellIntegration.enabled', enabled, vscode.ConfigurationTarget.Global);
}

describe('sandbox: the agent`s command in the integrated terminal', function () {
  this.timeout(90_000);
  let llm: ScriptedLlm | undefined;
  before(() => {
    mkdirSync(outsideDir, { recursive: true });
    writeFileSync(outsideFile, ORIGINAL);
  });
  after(async () => {
    await llm?.close();
    await vscode.workspace
      .getConfiguration('logbook')
      .update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    rmSync(outsideDir, { recursive: true, force: true });
  });

  it('cannot write outside the workspace, sees no editor process, and keeps shell integration', async () => {
    llm = await scriptedModel({
      name: 'host-sandbox',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              {
                id: 'call_write',
                name: 'terminal',
                arguments: {
                  command: `echo overwritten > ${outsideFile}`,
                  security_risk: 'LOW',
                  summary: 'write outside',
                },
              },
            ],
          },
        },
        {
          match: { lastRole: 'tool' },
          reply: {
            toolCalls: [
              {
                id: 'call_ps',
                name: 'terminal',
                arguments: { command: 'ps auxww', security_risk: 'LOW', summary: 'list processes' },
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
    await vscode.workspace
      .getConfiguration('logbook')
      .update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Try the sandbox');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);

    const observations = (await session.conversation.events())
      .filter((e) => e.kind === 'ObservationEvent')
      .map((e) => JSON.stringify(e));
    const text = (callId: string) => observations.find((o) => o.includes(`"${callId}"`)) ?? '';

    // Every check is made (and reported) even when an earlier one fails.
    const ps = text('call_ps').replace(/\\n/g, '\n');
    assert.match(ps, /PID/, ps);
    assert.deepEqual(
      {
        outsideFile: readFileSync(outsideFile, 'utf8'),
        writeRefused: /Read-only file system/.test(text('call_write')),
        editorProcesses: editorProcesses(ps),
        terminalMode: session.terminalMode,
        recorded: session.conversation.state.sandbox?.state,
      },
      {
        outsideFile: ORIGINAL,
        writeRefused: true,
        editorProcesses: [],
        terminalMode: 'shell-integration',
        recorded: 'on',
      },
    );
  });
});

describe('sandbox: the settings', () => {
  it('a workspace cannot set them (machine scope): only the user can', async () => {
    const cfg = vscode.workspace.getConfiguration('logbook');
    for (const key of ['sandbox.mode', 'sandbox.allowedHosts', 'sandbox.denyRead', 'sandbox.writable']) {
      const value = key === 'sandbox.mode' ? 'off' : ['example.com'];
      await assert.rejects(
        Promise.resolve(cfg.update(key, value, vscode.ConfigurationTarget.Workspace)),
        /User settings|Remote settings/,
        `${key} was written into the workspace settings`,
      );
      assert.equal(cfg.inspect(key)?.defaultValue !== undefined, true, `${key} has a default`);
    }
  });
});

/** A port with the conversation's sandbox, as conversation-session.ts builds it. */
function sandboxedPort(title: string, readOnly: () => boolean) {
  const sandbox = new CommandSandbox({ setting: readSandboxSetting(), allowedHosts: () => [] });
  const port = new IntegratedTerminalPort({
    title,
    shellIntegrationTimeoutMs: 10_000,
    sandbox: {
      sandbox,
      workspaces: () => [workspaceRoot()],
      readOnly,
      launcherDir: join(outsideDir, 'launchers'),
    },
  });
  return {
    port,
    dispose: async () => {
      port.dispose();
      await sandbox.dispose();
    },
  };
}

for (const mode of ['shell-integration', 'pseudoterminal'] as const satisfies readonly TerminalMode[]) {
  describe(`sandbox: the ${mode} terminal`, function () {
    this.timeout(60_000);
    let plan = false;
    let box: ReturnType<typeof sandboxedPort>;
    before(async () => {
      mkdirSync(outsideDir, { recursive: true });
      writeFileSync(outsideFile, ORIGINAL);
      if (mode === 'pseudoterminal') await setShellIntegration(false);
      box = sandboxedPort(`sandbox ${mode}`, () => plan);
    });
    after(async () => {
      await box.dispose();
      if (mode === 'pseudoterminal') await setShellIntegration(undefined);
      rmSync(outsideDir, { recursive: true, force: true });
      rmSync(join(workspaceRoot(), 'sandbox-sub'), { recursive: true, force: true });
    });

    it('refuses a write outside the workspace and shows no process of the editor', async () => {
      const write = await box.port.run(`echo overwritten > ${outsideFile}`, { timeoutMs: 20_000 });
      const ps = await box.port.run('ps auxww', { timeoutMs: 20_000 });
      assert.match(ps.output, /PID/);
      assert.deepEqual(
        {
          mode: box.port.mode,
          writeFailed: write.exitCode !== 0 && /Read-only file system/.test(write.output),
          outsideFile: readFileSync(outsideFile, 'utf8'),
          editorProcesses: editorProcesses(ps.output).length,
        },
        { mode, writeFailed: true, outsideFile: ORIGINAL, editorProcesses: 0 },
      );
    });

    it('cannot connect to a listening Unix socket outside the workspace: the host process hears nothing', async () => {
      const path = join(outsideDir, `host-${mode}.sock`);
      let connections = 0;
      const server = createServer((c) => {
        connections++;
        c.on('error', () => undefined);
        c.end('host-process-answered\n');
      });
      await new Promise<void>((resolve) => server.listen(path, resolve));
      try {
        const r = await box.port.run(
          `grep Seccomp: /proc/self/status; ls ${path} && python3 -c "import socket; s = socket.socket(socket.AF_UNIX); s.connect('${path}'); print(s.recv(64).decode())"`,
          { timeoutMs: 20_000 },
        );
        assert.deepEqual(
          {
            filtered: /Seccomp:\s*2/.test(r.output),
            visible: r.output.includes(path),
            refused: /Operation not permitted/.test(r.output),
            answered: /host-process-answered/.test(r.output),
            connections,
          },
          { filtered: true, visible: true, refused: true, answered: false, connections: 0 },
          r.output,
        );
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it('Ctrl+C stops the command, not the sandbox: the shell under the filter answers again', async () => {
      // Every command runs in a fresh bash, so the sandbox's own private /tmp tells it is the same one.
      const token = `alive-${process.pid}-${Date.now()}`;
      const first = await box.port.run(`echo ${token} > /tmp/sandbox-alive; cat /tmp/sandbox-alive`, {
        timeoutMs: 20_000,
      });
      assert.equal(first.output.trim(), token, first.output);
      const r = await box.port.run('sleep 60', { timeoutMs: 800 });
      assert.equal(r.timedOut, true);
      await box.port.interrupt();
      const after = await box.port.sendInput('', { timeoutMs: 10_000 });
      assert.equal(after.timedOut, false);
      assert.notEqual(after.exitCode, 0);
      const again = await box.port.run('cat /tmp/sandbox-alive; grep Seccomp: /proc/self/status', {
        timeoutMs: 20_000,
      });
      assert.equal(again.exitCode, 0, again.output);
      assert.equal(again.output.trim().split('\n')[0], token, 'the same sandbox');
      assert.match(again.output, /Seccomp:\s*2/);
    });

    it('holds what runs later: .vscode cannot be made, a .env written is removed and the output says so', async () => {
      const ws = workspaceRoot();
      const r = await box.port.run(
        "mkdir -p .vscode && echo '{}' > .vscode/tasks.json; echo A=1 > .env; echo done",
        { timeoutMs: 20_000 },
      );
      assert.deepEqual(
        {
          tasks: existsSync(join(ws, '.vscode', 'tasks.json')),
          env: existsSync(join(ws, '.env')),
          said: /\.env: Logbook removed it/.test(r.output),
        },
        { tasks: false, env: false, said: true },
        r.output,
      );
    });

    it("a repository a command makes runs nothing for the user's git: a .git file pointing at a filled git folder is removed", async () => {
      const ws = workspaceRoot();
      const marker = join(outsideDir, `fsmonitor-${mode}`);
      try {
        const r = await box.port.run(
          `git init -q --bare nested-git/g && git -C nested-git/g config core.bare false && git -C nested-git/g config core.fsmonitor "touch ${marker}; false" && mkdir -p nested-git/sub && echo "gitdir: ../g" > nested-git/sub/.git; echo done`,
          { timeoutMs: 20_000 },
        );
        // The user's git, as the editor's runs it in a repository it finds in a subfolder.
        spawnSync('git', ['-C', join(ws, 'nested-git', 'sub'), 'status'], { encoding: 'utf8' });
        spawnSync('git', ['-C', join(ws, 'nested-git', 'g'), 'status'], { encoding: 'utf8' });
        assert.deepEqual(
          {
            gitFile: existsSync(join(ws, 'nested-git', 'sub', '.git')),
            config: existsSync(join(ws, 'nested-git', 'g', 'config')),
            ran: existsSync(marker),
            said: /sub\/\.git: Logbook removed it/.test(r.output),
          },
          { gitFile: false, config: false, ran: false, said: true },
          r.output,
        );
      } finally {
        rmSync(join(ws, 'nested-git'), { recursive: true, force: true });
      }
    });

    it('plan mode: a new shell in the same folder sees the workspace read-only; act mode writes again', async () => {
      const cd = await box.port.run('mkdir -p sandbox-sub && cd sandbox-sub && echo act > act.txt', {
        timeoutMs: 20_000,
      });
      assert.equal(cd.exitCode, 0, cd.output);
      plan = true;
      const planned = await box.port.run('pwd; echo plan > plan.txt', { timeoutMs: 20_000 });
      assert.equal(box.port.mode, mode);
      assert.match(planned.output, /sandbox-sub/);
      assert.match(planned.output, /Read-only file system/);
      plan = false;
      const acted = await box.port.run('pwd; echo again > again.txt && cat again.txt', { timeoutMs: 20_000 });
      assert.equal(acted.exitCode, 0, acted.output);
      assert.match(acted.output, /sandbox-sub[\s\S]*again/);
    });
  });
}
