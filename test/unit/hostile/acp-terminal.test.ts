// An external ACP agent under `logbook run --agent` that runs commands through the client's
// terminal/* methods: each command is an action of Logbook's terminal tool, rated by the same
// gate, run in the same sandboxed shell, and recorded; its output and exit code reach the agent.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { outsideFolder } from '../../support/outside-folder';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, readLogJson } from '../cli/fixtures';
import { agentEnv, conversationDir, runTestAgent } from './acp-test-agent';

describe('hostile: terminal/* of an external ACP agent under logbook run --agent', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  const run = (ws: string, mode: 'act' | 'plan', ask: unknown, extra: string[] = []) =>
    runTestAgent(ws, mode, ask, extra, 90_000);

  it('Logbook offers the terminal capability', async () => {
    const ws = realpathSync(fx.tmp());
    const r = await run(ws, 'act', { terminalCapability: true }, ['--sandbox', 'off']);
    assert.equal(r.code, 0, printed(r));
    assert.match(
      JSON.stringify(await readLogJson(conversationDir(ws, r.stdout))),
      /terminal capability: true/,
    );
  });

  it('a LOW command runs in the sandbox; its output and exit code reach the agent, and the log has it', async () => {
    const ws = realpathSync(fx.tmp());
    const r = await run(
      ws,
      'act',
      {
        run: {
          command: 'sh',
          args: ['-c', 'echo hello-from-$GREETING; exit 3'],
          env: [{ name: 'GREETING', value: 'acp' }],
        },
      },
      ['--sandbox', 'required'],
    );
    assert.equal(r.code, 0, printed(r));
    const log = JSON.stringify(await readLogJson(conversationDir(ws, r.stdout)));
    assert.match(r.stdout, /Commands run in a sandbox \(bubblewrap/);
    assert.match(log, /terminal: exit 3 truncated false output: hello-from-acp/, printed(r));
    assert.ok(log.includes('"tool_name":"terminal"'), 'the command was an action of the terminal tool');
    assert.ok(log.includes('TerminalObservation'), 'its result is recorded');
  });

  it('outputByteLimit keeps the end of the output and says it was cut', async () => {
    const ws = realpathSync(fx.tmp());
    const r = await run(ws, 'act', { run: { command: 'echo abcdefghij', outputByteLimit: 4 } }, [
      '--sandbox',
      'required',
    ]);
    assert.equal(r.code, 0, printed(r));
    const log = JSON.stringify(await readLogJson(conversationDir(ws, r.stdout)));
    assert.match(log, /terminal: exit 0 truncated true output: ghij/, printed(r));
  });

  for (const mode of ['act', 'plan'] as const) {
    it(`${mode} mode: a command writing outside the workspace is contained (plan mode refuses it)`, async () => {
      const ws = realpathSync(fx.tmp());
      const outside = join(outsideFolder('acp-terminal-'), 'escaped.txt');
      const r = await run(ws, mode, { run: { command: 'sh', args: ['-c', `echo escaped > '${outside}'`] } }, [
        '--sandbox',
        'required',
        '--confirmation-mode',
        'never',
      ]);
      assert.ok(!existsSync(outside), printed(r));
      const log = JSON.stringify(await readLogJson(conversationDir(ws, r.stdout)));
      // Plan mode refuses it; act mode runs it in the sandbox, where it fails: the agent hears why.
      if (mode === 'plan')
        assert.match(log, /refused: .*Logbook did not run the command: Refused: .*plan mode/, printed(r));
      else
        assert.match(
          log,
          /terminal: exit [1-9]\d* truncated false output: .*(Read-only|Permission denied)/,
          printed(r),
        );
    });
  }

  it('cwd: each command runs where the agent asked, else in the workspace; a relative cwd is refused', async () => {
    const ws = realpathSync(fx.tmp());
    mkdirSync(join(ws, 'sub'));
    const r = await run(ws, 'act', { runs: [{ command: 'pwd', cwd: join(ws, 'sub') }, { command: 'pwd' }] }, [
      '--sandbox',
      'required',
    ]);
    assert.equal(r.code, 0, printed(r));
    const log = JSON.stringify(await readLogJson(conversationDir(ws, r.stdout)));
    assert.ok(
      log.includes(
        `terminal: exit 0 truncated false output: ${join(ws, 'sub')} | terminal: exit 0 truncated false output: ${ws}`,
      ),
      printed(r),
    );
    const relative = await run(ws, 'act', { run: { command: 'pwd', cwd: 'sub' } }, ['--sandbox', 'required']);
    assert.match(
      JSON.stringify(await readLogJson(conversationDir(ws, relative.stdout))),
      /refused: .*absolute/,
    );
  });

  it('plan mode: a writing command is refused; it never runs and the agent is told', async () => {
    const ws = realpathSync(fx.tmp());
    const target = join(ws, 'made.txt');
    const r = await run(ws, 'plan', { run: { command: `echo made > ${target}` } }, ['--sandbox', 'off']);
    assert.equal(r.code, 0, printed(r));
    assert.ok(!existsSync(target), printed(r));
    const log = JSON.stringify(await readLogJson(conversationDir(ws, r.stdout)));
    assert.ok(log.includes('"tool_name":"terminal"'), 'the command was an action of the terminal tool');
    assert.match(log, /refused: .*Logbook did not run the command: Refused: .*plan mode/);
    assert.doesNotMatch(log, /terminal: exit/);
  });

  it('a held command (exit 2) the user rejects never runs; one the user approves runs', async () => {
    const ws = realpathSync(fx.tmp());
    const target = join(ws, 'made.txt');
    const ask = { run: { command: `echo made > ${target}` } };
    const held = await run(ws, 'act', ask, ['--sandbox', 'off', '--confirmation-mode', 'always']);
    assert.equal(held.code, 2, printed(held));
    assert.ok(!existsSync(target), printed(held));
    const dir = conversationDir(ws, held.stdout);
    const reject = await runCli(['reject', dir, '--reason', 'no'], { env: agentEnv(), timeoutMs: 60_000 });
    assert.ok(!existsSync(target), printed(reject));
    assert.match(JSON.stringify(await readLogJson(dir)), /UserRejectObservation/, printed(reject));

    const ws2 = realpathSync(fx.tmp());
    const target2 = join(ws2, 'made.txt');
    const held2 = await run(ws2, 'act', { run: { command: `echo made > ${target2}` } }, [
      '--sandbox',
      'off',
      '--confirmation-mode',
      'always',
    ]);
    assert.equal(held2.code, 2, printed(held2));
    const approve = await runCli(['approve', conversationDir(ws2, held2.stdout)], {
      env: agentEnv(),
      timeoutMs: 60_000,
    });
    assert.ok(existsSync(target2), printed(approve));
    // It may change files: a checkpoint is taken around it.
    assert.match(approve.stdout, /\[checkpoint\] \w+: the starting state/, printed(approve));
  });
});
