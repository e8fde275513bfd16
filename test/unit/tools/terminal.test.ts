import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createTerminalTool, type TerminalArgs } from '../../../src/core/tools';
import { createWorkspace, type TestWorkspace, textOf } from './workspace';

describe('terminal tool (Node bash port)', function () {
  this.timeout(20_000);
  let ws: TestWorkspace;
  let terminal: ReturnType<typeof createTerminalTool>;
  const run = (command: string, extra: Partial<TerminalArgs> = {}) =>
    ws.run(terminal, { command, is_input: false, reset: false, timeout: 10, ...extra });
  const input = (command: string, timeout = 10) => run(command, { is_input: true, timeout });

  beforeEach(() => {
    ws = createWorkspace();
    terminal = createTerminalTool({ interruptWaitSec: 5, defaultTimeoutSec: 0.3 });
  });
  afterEach(() => ws.dispose());

  it('reports output and exit codes in the TerminalObservation shape', async () => {
    const ok = await run('echo hello');
    assert.equal(ok.kind, 'TerminalObservation');
    assert.equal(ok.is_error, false);
    assert.equal(ok.exit_code, 0);
    assert.equal(ok.timeout, false);
    assert.equal(ok.command, 'echo hello');
    assert.equal(textOf(ok), 'hello\n[The command completed with exit code 0.]');
    assert.deepEqual(ok.metadata, {
      exit_code: 0,
      working_dir: ws.root,
      carried: `carried: working folder ${ws.root}, exported: none changed`,
      prefix: '',
      suffix: '\n[The command completed with exit code 0.]',
    });

    const failed = await run('echo oops >&2; (exit 3)');
    assert.equal(failed.exit_code, 3);
    assert.equal(failed.is_error, false, 'a failing command is not a tool error');
    assert.match(textOf(failed), /^oops\n\[The command completed with exit code 3\.\]$/);
  });

  it('keeps the working directory and exported variables between calls', async () => {
    ws.write({ 'sub/file.txt': 'x' });
    const cd = await run('cd sub && export GREETING=hi');
    assert.equal((cd.metadata as { working_dir: string }).working_dir, ws.path('sub'));
    assert.match(textOf(cd), /Working directory is now .*sub/);
    assert.equal(
      (cd.metadata as { carried: string }).carried,
      `carried: working folder ${ws.path('sub')}, exported: GREETING`,
      'the log names what carries, never the values',
    );
    const next = await run('pwd; ls; echo $GREETING');
    assert.equal(textOf(next).split('\n').slice(0, 3).join('\n'), `${ws.path('sub')}\nfile.txt\nhi`);
  });

  it('survives a syntax error and strips escape sequences', async () => {
    const bad = await run('if then fi (');
    assert.notEqual(bad.exit_code, 0);
    assert.match(textOf(bad), /syntax error/);
    const colour = await run("printf '\\033[31mred\\033[0m\\n'");
    assert.match(textOf(colour), /^red\n/);
  });

  it('returns after the timeout with exit -1, then reads the rest with an empty is_input', async () => {
    const first = await run('echo start; sleep 0.8; echo done', { timeout: undefined });
    assert.equal(first.exit_code, -1);
    assert.equal(first.timeout, true);
    assert.match(
      textOf(first),
      /^start\n\[The command is still running after 0\.3 s .*empty command with is_input true/s,
    );
    assert.equal(ws.ports.terminal.busy, true);

    const blocked = await run('echo other');
    assert.equal(blocked.is_error, true);
    assert.match(textOf(blocked), /still running/);

    const rest = await input('', 10);
    assert.equal(rest.exit_code, 0);
    assert.match(textOf(rest), /^done\n\[The command completed with exit code 0\.\]$/);
    assert.equal(ws.ports.terminal.busy, false);
  });

  it('an explicit timeout is a hard limit: the command is stopped with Ctrl+C', async () => {
    const started = Date.now();
    const obs = await run('echo begun; sleep 100; echo not-reached', { timeout: 0.5 });
    assert.equal(obs.timeout, true);
    assert.equal(obs.exit_code, 130);
    assert.match(textOf(obs), /^begun\n/);
    assert.match(textOf(obs), /Timed out after 0\.5 s: sent Ctrl\+C/);
    assert.doesNotMatch(textOf(obs), /not-reached/);
    assert.ok(Date.now() - started < 8000);
    assert.equal(ws.ports.terminal.busy, false, 'the shell is free for the next command');
    assert.match(textOf(await run('echo next')), /^next/);
  });

  it('sends input to a command waiting for it', async () => {
    const prompt = await run('read -r name; echo "hello $name"', { timeout: undefined });
    assert.equal(prompt.exit_code, -1);
    const answered = await input('world');
    assert.equal(answered.exit_code, 0);
    assert.match(textOf(answered), /hello world/);
  });

  it('interrupts `sleep 100` with C-c and keeps the shell', async () => {
    await run('cd /tmp');
    const started = Date.now();
    const sleeping = await run('sleep 100; echo not-reached', { timeout: undefined });
    assert.equal(sleeping.exit_code, -1);
    const stopped = await input('C-c');
    assert.equal(stopped.exit_code, 130);
    assert.doesNotMatch(textOf(stopped), /not-reached/);
    assert.ok(Date.now() - started < 8000);
    const after = await run('pwd');
    assert.equal(textOf(after).split('\n')[0], '/tmp', 'the same shell, still in /tmp');
  });

  it('interrupts a loop running inside the shell itself', async () => {
    await run('export KEEP=yes');
    const loop = await run('while true; do :; done', { timeout: undefined });
    assert.equal(loop.exit_code, -1);
    const stopped = await input('C-c');
    assert.notEqual(stopped.exit_code, -1);
    assert.match(textOf(await run('echo $KEEP')), /^yes/);
  });

  it('stops waiting when the agent is stopped, saying the command still runs', async () => {
    const obs = await terminal.execute(
      { command: 'sleep 2; echo late', is_input: false, reset: false, timeout: 30 },
      { ...ws.ctx, signal: AbortSignal.timeout(200) },
    );
    assert.equal(obs.exit_code, -1);
    assert.match(textOf(obs), /Stopped waiting because the agent was stopped/);
  });

  it('refuses is_input when nothing runs', async () => {
    const obs = await input('hello');
    assert.equal(obs.is_error, true);
    assert.match(textOf(obs), /No command is running/);
  });

  it('caps long output, keeping head and tail, and saves the full output for the agent', async () => {
    terminal = createTerminalTool({ maxOutputChars: 2000 });
    const obs = await run('seq 1 20000');
    const text = textOf(obs);
    assert.ok(text.length < 2300, `shown ${text.length} chars`);
    assert.match(text, /^1\n2\n3\n/);
    assert.match(text, /19999\n20000\n\[The command completed/);
    const path = obs.full_output_path as string;
    assert.ok(path.startsWith(ws.scratchDir), path);
    assert.equal(obs.full_output_save_dir, ws.scratchDir);
    assert.ok(text.includes(`characters cut here; the full output (`) && text.includes(path));
    const full = readFileSync(path, 'utf8');
    assert.equal(full.split('\n').length, 20000);
    assert.equal(full.split('\n')[12345], '12346');
  });

  it('does not save anything when the output fits', async () => {
    const obs = await run('seq 1 10');
    assert.equal(obs.full_output_path, null);
  });

  it('reset starts a fresh shell in the workspace, forgetting state', async () => {
    await run('export FOO=1; cd /tmp');
    const reset = await run('', { reset: true });
    assert.equal(reset.is_error, false);
    assert.match(textOf(reset), /reset/);
    const after = await run('echo ${FOO:-unset}; pwd');
    assert.equal(textOf(after).split('\n').slice(0, 2).join('\n'), `unset\n${ws.root}`);
  });

  it('reset stops a running command', async () => {
    await run('sleep 100', { timeout: undefined });
    assert.equal(ws.ports.terminal.busy, true);
    const obs = await run('echo fresh', { reset: true });
    assert.match(textOf(obs), /^\[The terminal was reset\.\]\nfresh/);
    assert.equal(ws.ports.terminal.busy, false);
  });

  it('a command that exits the shell ends with its code, and the next command gets a new shell', async () => {
    const exited = await run('exit 7');
    assert.equal(exited.exit_code, 7);
    const next = await run('echo alive');
    assert.match(textOf(next), /^alive/);
  });
});
