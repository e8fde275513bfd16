// An external ACP agent under `logbook run --agent` that asks for what Logbook's own agent may not
// do: a write outside the workspace, a write to a held file (.vscode/settings.json), a permission
// for its own tool, a file written with its own rights outside the workspace. Each is refused or
// asked as Logbook's own tools would be, in act and in plan mode, and the log says what was asked.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { outsideFolder } from '../../support/outside-folder';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, readLogJson } from '../cli/fixtures';
import { AGENT, agentEnv, conversationDir, runTestAgent } from './acp-test-agent';

describe('hostile: an external ACP agent under logbook run --agent', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  const run = (ws: string, mode: 'act' | 'plan', ask: unknown, extra: string[] = []) =>
    runTestAgent(ws, mode, ask, extra, 60_000);

  for (const mode of ['act', 'plan'] as const) {
    it(`${mode} mode: fs/write_text_file outside the workspace is refused; nothing is written there`, async () => {
      const ws = realpathSync(fx.tmp());
      const outside = join(outsideFolder('acp-client-'), 'escaped.txt');
      const r = await run(ws, mode, { write: { path: outside, content: 'escaped\n' } }, ['--sandbox', 'off']);
      assert.ok(!existsSync(outside), printed(r));
      const log = JSON.stringify(await readLogJson(conversationDir(ws, r.stdout)));
      assert.match(log, /refused: /, 'the agent was told no');
      assert.ok(log.includes('"tool_name":"file_editor"'), 'the write was an action of the file tool');
    });

    it(`${mode} mode: fs/read_text_file follows the file tools' read rules: inside read, outside never unasked`, async () => {
      const ws = realpathSync(fx.tmp());
      writeFileSync(join(ws, 'notes.txt'), 'one\ntwo\nthree\n');
      const inside = await run(ws, mode, { read: { path: join(ws, 'notes.txt'), line: 2, limit: 1 } }, [
        '--sandbox',
        'off',
      ]);
      assert.equal(inside.code, 0, printed(inside));
      const log = JSON.stringify(await readLogJson(conversationDir(ws, inside.stdout)));
      assert.match(log, /read: two/, 'the agent got the line it asked for');
      assert.ok(log.includes('"command":"view"'), 'the read was the file tool view');
      const secret = join(outsideFolder('acp-client-read-'), 'secret.txt');
      writeFileSync(secret, 'outside-secret-4242\n');
      const ws2 = realpathSync(fx.tmp());
      const outside = await run(ws2, mode, { read: { path: secret } }, ['--sandbox', 'off']);
      const log2 = JSON.stringify(await readLogJson(conversationDir(ws2, outside.stdout)));
      assert.doesNotMatch(log2, /read: outside-secret/, printed(outside));
      assert.ok(outside.code === 2 || /refused: /.test(log2), printed(outside));
    });

    it(`${mode} mode: a write to .vscode/settings.json is held or refused, never written unasked`, async () => {
      const ws = realpathSync(fx.tmp());
      mkdirSync(join(ws, '.vscode'));
      const held = join(ws, '.vscode', 'settings.json');
      writeFileSync(held, '{}\n');
      const r = await run(
        ws,
        mode,
        { write: { path: held, content: '{"logbook.confirmation.mode":"never"}\n' } },
        ['--sandbox', 'off'],
      );
      assert.equal(readFileSync(held, 'utf8'), '{}\n', printed(r));
      // Act mode asks (exit 2, `logbook approve` decides); plan mode refuses writes outright.
      if (mode === 'act') assert.equal(r.code, 2, printed(r));
      else assert.match(JSON.stringify(await readLogJson(conversationDir(ws, r.stdout))), /refused: /);
    });

    it(`${mode} mode: a session/request_permission goes through the gate, never granted unasked`, async () => {
      const ws = realpathSync(fx.tmp());
      const r = await run(ws, mode, { ask: { title: 'Remove everything', command: 'rm -rf /' } }, [
        '--sandbox',
        'off',
      ]);
      const dir = conversationDir(ws, r.stdout);
      const log = JSON.stringify(await readLogJson(dir));
      assert.ok(log.includes('"tool_name":"agent_permission"'), 'the request is an action of the log');
      if (mode === 'act') {
        // HIGH risk: held for the user (exit 2); the agent has heard nothing yet.
        assert.equal(r.code, 2, printed(r));
        assert.doesNotMatch(log, /permission: yes/);
        const reject = await runCli(['reject', dir, '--reason', 'no'], {
          env: agentEnv(),
          timeoutMs: 60_000,
        });
        assert.match(JSON.stringify(await readLogJson(dir)), /UserRejectObservation/, printed(reject));
      } else {
        // Plan mode refuses it before anyone is asked, and the agent hears no.
        assert.equal(r.code, 0, printed(r));
        assert.match(log, /permission: no/);
      }
    });
  }

  it('a permission for a command the allow rules name is granted; one they do not is asked', async () => {
    const ws = realpathSync(fx.tmp());
    const config = join(fx.tmp(), 'config');
    mkdirSync(join(config, 'logbook'), { recursive: true });
    writeFileSync(
      join(config, 'logbook', 'config.json'),
      JSON.stringify({ 'confirmation.allowRules': ['npm test'] }),
    );
    const env = { ...agentEnv(), XDG_CONFIG_HOME: config };
    const ask = (command: string) =>
      runCli(
        [
          'run',
          '--workspace',
          ws,
          '--agent',
          'writer',
          '--sandbox',
          'off',
          '--confirmation-mode',
          'always',
          '--task',
          JSON.stringify({ ask: { title: command, command } }),
        ],
        { env, timeoutMs: 60_000 },
      );
    const allowed = await ask('npm test');
    assert.equal(allowed.code, 0, printed(allowed));
    assert.match(JSON.stringify(await readLogJson(conversationDir(ws, allowed.stdout))), /permission: yes/);
    const other = await ask('npm publish');
    assert.equal(other.code, 2, printed(other));
  });

  it('Ctrl+C mid-turn (session/cancel sent, the agent stopped): the log records the pause, exit 130', async () => {
    const ws = realpathSync(fx.tmp());
    const r = await runCli(
      ['run', '--workspace', ws, '--agent', 'writer', '--sandbox', 'off', '--task', '{"wait": true}'],
      {
        env: agentEnv(),
        timeoutMs: 60_000,
        onSpawn: (child) => {
          let seen = '';
          child.stdout?.on('data', (d: Buffer) => {
            seen += d.toString();
            if (seen.includes('[state] shell')) setTimeout(() => child.kill('SIGINT'), 300);
          });
        },
      },
    );
    assert.equal(r.code, 130, printed(r));
    const dir = conversationDir(ws, r.stdout);
    const show = JSON.parse((await runCli(['show', dir, '--json'])).stdout) as { status: string };
    assert.equal(show.status, 'paused');
    const verify = await runCli(['verify', dir]);
    assert.equal(verify.code, 0, printed(verify));
  });

  it("the agent's key it was given by name is redacted from what it says; other variables never reach it", async () => {
    const ws = realpathSync(fx.tmp());
    const key = 'sk-agent-DO-NOT-LEAK-9876';
    const agents = { writer: { command: process.execPath, args: [AGENT], env: ['AGENT_TEST_KEY'] } };
    const env = {
      ...agentEnv(),
      LOGBOOK_ACP_AGENTS: JSON.stringify(agents),
      AGENT_TEST_KEY: key,
      OTHER_TEST_VAR: 'not-for-the-agent',
    };
    const say = (name: string) =>
      runCli(
        [
          'run',
          '--workspace',
          ws,
          '--agent',
          'writer',
          '--sandbox',
          'off',
          '--task',
          JSON.stringify({ env: name }),
        ],
        {
          env,
          timeoutMs: 60_000,
        },
      );
    const given = await say('AGENT_TEST_KEY');
    assert.equal(given.code, 0, printed(given));
    assert.ok(!given.stdout.includes(key) && !given.stderr.includes(key), printed(given));
    const log = JSON.stringify(await readLogJson(conversationDir(ws, given.stdout)));
    assert.ok(!log.includes(key), 'the key is not in the log');
    assert.match(log, /env: /);
    const other = await say('OTHER_TEST_VAR');
    assert.match(JSON.stringify(await readLogJson(conversationDir(ws, other.stdout))), /env: undefined/);
  });

  it('the agent process runs in the sandbox: a file it writes itself outside the workspace is not written', async () => {
    const ws = realpathSync(fx.tmp());
    const outside = join(outsideFolder('acp-client-sandbox-'), 'escaped.txt');
    const r = await run(ws, 'act', { touch: outside }, ['--sandbox', 'required']);
    assert.ok(!existsSync(outside), printed(r));
    const inside = join(ws, 'inside.txt');
    const r2 = await run(ws, 'act', { touch: inside }, ['--sandbox', 'required']);
    assert.equal(readFileSync(inside, 'utf8'), 'written by the agent itself\n', printed(r2));
  });
});
