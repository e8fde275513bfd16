// Every command in the editor's terminal starts clean (issue 47, point 6), in real VS Code, both
// ways the terminal runs commands (its own bash with shell integration, and the pseudoterminal
// fallback). A scripted model sets a DEBUG trap, an alias, a function, PROMPT_COMMAND and shell
// options in one call; the later calls' output and the marks the hooks would write prove none of
// them carried, while `cd` and `export` did, and the log names what carried. Through the chat in
// act mode and in plan mode (which refuses such a command, so there only what carries is checked),
// and through the port in the sandbox as plan mode starts it (a read-only workspace).
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { CommandSandbox } from '../../../src/host/node/sandbox';
import { IntegratedTerminalPort, type TerminalMode } from '../../../src/host/vscode/ports/terminal-port';
import { readSandboxSetting } from '../../../src/host/vscode/sandbox/sandbox-settings';
import type { ScriptedLlm } from '../../support/llm-server';
import { AFTER_PLANTING, plantHooks } from '../../support/shell-hooks-planted';
import { EXTENSION_ID, logbook, scriptedModel, workspaceRoot } from './helpers';

async function setShellIntegration(enabled: boolean | undefined): Promise<void> {
  await vscode.workspace
    .getConfiguration('terminal.integrated')
    .update('shellIntegration.enabled', enabled, vscode.ConfigurationTarget.Global);
}

const terminal = (id: string, command: string) => ({
  id,
  name: 'terminal',
  arguments: { command, security_risk: 'LOW', summary: id },
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const mode of ['shell-integration', 'pseudoterminal'] as const satisfies readonly TerminalMode[]) {
  describe(`fresh shell: the ${mode} terminal through the chat`, function () {
    this.timeout(120_000);
    let llm: ScriptedLlm | undefined;
    let dir: string;
    before(async () => {
      if (mode === 'pseudoterminal') await setShellIntegration(false);
      await vscode.workspace
        .getConfiguration('logbook')
        .update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
    });
    beforeEach(() => {
      dir = join(workspaceRoot(), `fresh-${randomUUID().slice(0, 8)}`);
      mkdirSync(join(dir, 'sub'), { recursive: true });
      writeFileSync(join(dir, 'sub', 'listed.txt'), '');
    });
    afterEach(async () => {
      await llm?.close();
      llm = undefined;
      rmSync(dir, { recursive: true, force: true });
    });
    after(async () => {
      if (mode === 'pseudoterminal') await setShellIntegration(undefined);
      await vscode.workspace
        .getConfiguration('logbook')
        .update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    });

    /** Runs the calls as a conversation; the observations' JSON, by call id. */
    async function converse(agentMode: 'act' | 'plan', calls: ReturnType<typeof terminal>[]) {
      llm = await scriptedModel({
        name: `host-fresh-shell-${mode}`,
        turns: [
          ...calls.map((call, i) => ({
            match: i === 0 ? { lastRole: 'user' as const } : { lastRole: 'tool' as const },
            reply: { toolCalls: [call] },
          })),
          {
            match: { lastRole: 'tool' as const },
            reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
          },
        ],
      });
      const { service } = await logbook();
      const session = await service.create();
      const id = session.id;
      try {
        await session.setMode(agentMode);
        await session.send('Set up the shell');
        assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
        const events = await session.conversation.events();
        const seen = (callId: string) =>
          JSON.stringify(
            events.find((e) => e.kind === 'ObservationEvent' && JSON.stringify(e).includes(callId)),
          );
        return { seen, mode: session.terminalMode, state: session.conversation.state };
      } finally {
        await service.delete(id);
      }
    }

    it('act mode: no trap, alias, function, PROMPT_COMMAND or option of one call is in the next', async () => {
      const mark = join(dir, 'hook-mark');
      const { seen, mode: ran } = await converse('act', [
        terminal('call_plant', `cd ${dir}\n${plantHooks(mark)}`),
        terminal('call_clear', `rm -f ${mark}`),
        terminal('call_later', AFTER_PLANTING),
        terminal('call_again', 'ls; echo done'),
      ]);
      assert.equal(ran, mode);
      const planted = seen('call_plant');
      assert.match(planted, /ALIAS(\\[rn])+FN/, `the planting call ran, all of it: ${planted}`);
      assert.match(
        planted,
        new RegExp(`carried: working folder ${escaped(dir)}/sub, exported: CARRY_ME`),
        planted,
      );
      const later = seen('call_later');
      assert.match(later, /listed\.txt/, 'ls ran as logged, in the carried folder');
      assert.match(later, /greet: not found/, later);
      assert.match(later, /extglob\s*(\\t|\s)+off/, later);
      assert.match(
        later,
        /after x=1 pc=\\n/,
        `the export carried; set -e and PROMPT_COMMAND did not: ${later}`,
      );
      assert.match(later, /carried: working folder [^"]*, exported: none changed/, later);
      assert.doesNotMatch(seen('call_again'), /ALIAS|FN\\n/);
      assert.equal(
        existsSync(mark),
        false,
        `a hook fired later: ${existsSync(mark) ? readFileSync(mark, 'utf8') : ''}`,
      );
    });

    it('plan mode: the folder and the exported variable carry, and the log says so', async () => {
      const { seen, state } = await converse('plan', [
        terminal('call_cd', `cd ${dir}/sub && export CARRY_ME=1`),
        terminal('call_later', 'ls; echo "after x=$CARRY_ME"'),
      ]);
      assert.equal(state.mode, 'plan');
      assert.match(
        seen('call_cd'),
        new RegExp(`carried: working folder ${escaped(dir)}/sub, exported: CARRY_ME`),
      );
      assert.match(seen('call_later'), /listed\.txt[\s\S]*after x=1/);
    });
  });
}

/**
 * Outside the workspace, where the sandbox still sees it: the launchers' folder (see sandbox.test.ts).
 */
const outsideDir = join(
  vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath,
  'test-results',
  `fresh-shell-${process.pid}`,
);

for (const mode of ['shell-integration', 'pseudoterminal'] as const satisfies readonly TerminalMode[]) {
  describe(`fresh shell: the ${mode} terminal in the sandbox, act and plan mode`, function () {
    this.timeout(90_000);
    let plan = false;
    let sandbox: CommandSandbox;
    let port: IntegratedTerminalPort;
    let dir: string;
    before(async () => {
      if (mode === 'pseudoterminal') await setShellIntegration(false);
      dir = join(workspaceRoot(), `fresh-box-${randomUUID().slice(0, 8)}`);
      mkdirSync(join(dir, 'sub'), { recursive: true });
      writeFileSync(join(dir, 'sub', 'listed.txt'), '');
      sandbox = new CommandSandbox({ setting: readSandboxSetting(), allowedHosts: () => [] });
      port = new IntegratedTerminalPort({
        title: `fresh ${mode}`,
        cwd: dir,
        shellIntegrationTimeoutMs: 10_000,
        sandbox: {
          sandbox,
          workspaces: () => [workspaceRoot()],
          readOnly: () => plan,
          launcherDir: join(outsideDir, 'launchers'),
        },
      });
    });
    after(async () => {
      port.dispose();
      await sandbox.dispose();
      if (mode === 'pseudoterminal') await setShellIntegration(undefined);
      rmSync(dir, { recursive: true, force: true });
      rmSync(outsideDir, { recursive: true, force: true });
    });

    it('a command stopped by Ctrl+C carries nothing', async () => {
      plan = false;
      const T = { timeoutMs: 20_000 };
      await port.run(`cd ${dir}`, T);
      const r = await port.run('cd sub && export STOPPED_ONE=1 && sleep 30', { timeoutMs: 1_500 });
      assert.equal(r.timedOut, true);
      await port.interrupt();
      const end = await port.sendInput('', { timeoutMs: 10_000 });
      assert.equal(end.timedOut, false, 'Ctrl+C ended it');
      const after = await port.run('pwd; echo "s=${STOPPED_ONE-unset}"', T);
      assert.equal(after.output.trim(), `${dir}\ns=unset`);
    });

    for (const planMode of [false, true]) {
      it(`${planMode ? 'plan' : 'act'} mode: hooks do not carry, the folder and exports do`, async () => {
        plan = planMode;
        // Plan mode's workspace is read-only: the hooks write to the sandbox's own /tmp.
        const mark = planMode ? '/tmp/hook-mark' : join(dir, 'hook-mark');
        const T = { timeoutMs: 20_000 };
        await port.run(`cd ${dir}`, T);
        const planted = await port.run(plantHooks(mark), T);
        assert.equal(port.mode, mode);
        assert.match(planted.output, /ALIAS\s+FN/, planted.output);
        assert.deepEqual([planted.cwd, planted.carried], [join(dir, 'sub'), ['CARRY_ME']]);
        await port.run(`rm -f ${mark}`, T);
        const later = await port.run(AFTER_PLANTING, T);
        assert.match(later.output, /listed\.txt/);
        assert.match(later.output, /greet: not found/);
        assert.match(later.output, /extglob\s+off/);
        assert.match(later.output, /after x=1 pc=\n/, later.output);
        const seen = await port.run(`cat ${mark} 2>/dev/null || echo no-hit`, T);
        assert.equal(seen.output.trim(), 'no-hit');
        await port.run('unset CARRY_ME', T);
      });
    }
  });
}
