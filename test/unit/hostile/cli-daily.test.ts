// The CLI for daily use, attacked.
//
// 1. "The newest conversation here" is where `approve` goes when no folder is named. A repository
//    can carry a `.logbook/conversations/<id>` folder of someone else's run, newer than the user's
//    own after a clone or a pull, whose pending action writes outside the workspace: it must never
//    be picked (only a conversation `logbook run` started on this machine is). Act mode only: in
//    plan mode such a write is refused before anyone is asked, so there is nothing to approve.
// 2. The question `run` asks in place shows what the model wrote (the edit's text, the summary): a
//    control sequence in it must reach the terminal escaped, whatever colour the CLI adds itself.
// 3. A version manager's shell setup (pyenv's `pyenv init -` rehashes, and says on stderr that its
//    shims folder is not writable, which it never is in the sandbox) must not start every command's
//    output. The CLI's shell reads no startup file; a shell that reads the user's (the editor's
//    kind) keeps what its startup printed apart from the commands' output. Checked with a real
//    pyenv-style rc made readable inside the sandbox: its complaint is seen at startup (so the rc
//    ran), and in no command's output.
// Each in act and plan mode.
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { NodeTerminalPort } from '../../../src/host/node/ports/node-terminal-port';
import { CommandSandbox, probeSandbox } from '../../../src/host/node/sandbox';
import { join } from 'node:path';
import { outsideFolder } from '../../support/outside-folder';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, onlyConversationDir, terminalCall } from '../cli/fixtures';
import { runInTerminal, terminalAvailable } from '../cli/terminal-runner';

const MODES = ['act', 'plan'] as const;

describe('hostile: the CLI for daily use', function () {
  this.timeout(180_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  {
    const mode = 'act';
    it('approve without a folder never picks a conversation another machine ran', async () => {
      const outside = outsideFolder('cli-daily-');
      const target = join(outside, 'pwned.txt');
      const scenario = () => ({
        name: 'planted',
        turns: [
          {
            match: { lastRole: 'user' as const },
            reply: { toolCalls: [terminalCall('call_w', `echo pwned > ${target}`, 'LOW')] },
          },
          { match: { lastRole: 'tool' as const }, reply: { content: 'Done.' } },
        ],
      });
      let env = await fx.startLlm(scenario());
      // The user's own conversation in the repository, waiting.
      const ws = fx.tmp();
      const own = await runCli(
        ['run', 'note', '--mode', mode, '--confirmation-mode', 'always', '--sandbox', 'off'],
        { env, cwd: ws },
      );
      assert.equal(own.code, 2, printed(own));
      const ownDir = onlyConversationDir(ws);
      // Someone else's, run on another machine (its own config folder), arrives with a pull: newer.
      const elsewhere = fx.tmp();
      env = await fx.startLlm(scenario());
      const foreign = await runCli(
        ['run', 'note', '--mode', mode, '--confirmation-mode', 'always', '--sandbox', 'off'],
        { env: { ...env, XDG_CONFIG_HOME: fx.tmp() }, cwd: elsewhere },
      );
      assert.equal(foreign.code, 2, printed(foreign));
      const planted = join(ws, '.logbook', 'conversations', 'planted');
      cpSync(onlyConversationDir(elsewhere), planted, { recursive: true });
      const later = new Date(Date.now() + 60_000);
      for (const name of readdirSync(join(planted, 'segments')))
        utimesSync(join(planted, 'segments', name), later, later);

      const show = await runCli(['show', '--json'], { cwd: ws });
      assert.equal(show.code, 0, printed(show));
      assert.equal((JSON.parse(show.stdout) as { dir: string }).dir, ownDir, 'the own conversation');

      // With only the planted one left, nothing is picked.
      const alone = fx.tmp();
      mkdirSync(join(alone, '.logbook', 'conversations'), { recursive: true });
      cpSync(planted, join(alone, '.logbook', 'conversations', 'planted'), { recursive: true });
      const approve = await runCli(['approve'], { env, cwd: alone });
      assert.equal(approve.code, 1, printed(approve));
      assert.match(approve.stderr, /no conversation that logbook run started on this machine/);
      assert.equal(existsSync(target), false, 'the planted action did not run');
    });
  }

  describe('the question asked in place', function () {
    before(function () {
      if (!terminalAvailable()) this.skip();
    });

    for (const mode of MODES) {
      it(`escapes control sequences of the model's text; only the CLI's own colours reach the terminal (${mode} mode)`, async () => {
        const sequence = '\x1b]0;owned\x07\x1b[2J';
        // Act: an edit whose text holds it; plan (where edits are refused unasked): a command.
        const edit = {
          id: 'call_edit',
          name: 'file_editor',
          arguments: {
            command: 'str_replace',
            path: 'a.txt',
            old_str: 'one',
            new_str: `two ${sequence}`,
            security_risk: 'MEDIUM',
            summary: `change a.txt ${sequence}`,
          },
        };
        const call = mode === 'act' ? edit : terminalCall('call_echo', `echo '${sequence}'`, 'LOW');
        const env = await fx.startLlm({
          name: `escapes-${mode}`,
          turns: [
            { match: { lastRole: 'user' }, reply: { toolCalls: [call] } },
            { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
          ],
        });
        const ws = fx.tmp();
        writeFileSync(join(ws, 'a.txt'), 'one\n');
        const r = await runInTerminal(['run', 'change it', '--mode', mode, '--confirmation-mode', 'always'], {
          env,
          cwd: ws,
          answers: [
            { after: /\[s\]how more: $/, text: 'n' },
            { after: /Why not\?/, text: '' },
          ],
        });
        assert.ok(r.code === 0, r.screen);
        const asked = r.screen.slice(0, r.screen.indexOf('[y]es'));
        assert.match(asked, /\\u001b\]0;owned\\u0007\\u001b\[2J/, asked);
        if (mode === 'act') assert.match(asked, /\x1b\[32m {2}\+two /, 'the added line in green');
        // Only the CLI's own colours: no other escape sequence reached the terminal.
        const rest = r.screen.replace(/\x1b\[(?:0|1|31|32|36)m/g, '');
        assert.doesNotMatch(rest, /\x1b/, JSON.stringify(rest));
      });
    }
  });

  for (const mode of MODES) {
    it(`a pyenv-style rc's complaint about its read-only shims never starts a command's output (${mode} mode)`, async function () {
      if (!probeSandbox().available) this.skip();
      const home = outsideFolder('cli-daily-home-');
      mkdirSync(join(home, '.fakeenv', 'shims'), { recursive: true });
      writeFileSync(
        join(home, '.bashrc'),
        'export FAKEENV_ROOT="$HOME/.fakeenv"\n' +
          '# what `pyenv init -` runs: a rehash that needs its shims folder writable\n' +
          'if [ ! -w "$FAKEENV_ROOT/shims" ]; then echo "fakeenv: cannot rehash: $FAKEENV_ROOT/shims isn\'t writable" >&2; fi\n',
      );
      const ws = fx.tmp();
      const sandbox = new CommandSandbox({
        setting: 'required',
        allowedHosts: () => [],
        homeReadable: ['.bashrc', '.fakeenv'],
        hostEnv: { ...process.env, HOME: home },
      });
      const terminal = new NodeTerminalPort({
        cwd: ws,
        startup: 'user',
        env: { HOME: home },
        sandbox: { sandbox, workspaces: [ws], readOnly: () => mode === 'plan' },
      });
      try {
        const outputs = [];
        for (const c of ['echo one', 'echo two'])
          outputs.push((await terminal.run(c, { timeoutMs: 20_000 })).output);
        assert.deepEqual(outputs, ['one\n', 'two\n']);
        // The control: the rc ran inside the sandbox and complained, at startup.
        assert.match(
          terminal.startupOutput,
          /fakeenv: cannot rehash: .*isn't writable/,
          terminal.startupOutput,
        );
      } finally {
        terminal.dispose();
        await sandbox.dispose();
      }
    });
  }
});
