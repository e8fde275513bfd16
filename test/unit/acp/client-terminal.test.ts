// The shell line a terminal/create stands for, and what the agent gets back from the terminal
// tool's recorded result.
import * as assert from 'node:assert/strict';
import { commandLine, endedTerminal, shellQuote } from '../../../src/host/node/acp/client-terminal';

const req = (over: Record<string, unknown>) =>
  ({ sessionId: 's', command: 'ls', ...over }) as Parameters<typeof commandLine>[0];

describe('ACP client terminals', () => {
  it('quotes every word when args are given, and takes a lone command as a shell line', () => {
    assert.equal(commandLine(req({ command: 'ls -la | head' }), '/w', '/w'), 'ls -la | head');
    assert.equal(
      commandLine(req({ command: 'sh', args: ['-c', "echo 'hi' > x"] }), '/w', '/w'),
      `sh -c 'echo '\\''hi'\\'' > x'`,
    );
    assert.equal(shellQuote('plain/path-1.txt'), 'plain/path-1.txt');
    assert.equal(shellQuote(''), "''");
  });

  it("runs in its cwd, else the session's, changing directory only away from where the shell is", () => {
    assert.equal(commandLine(req({ cwd: '/w' }), '/w', '/w'), 'ls');
    assert.equal(commandLine(req({ cwd: '/w/a b' }), '/w', '/w'), `cd '/w/a b' && ls`);
    assert.equal(commandLine(req({}), '/w/sub', '/w'), 'cd /w && ls');
    assert.equal(commandLine(req({}), '/w', '/w'), 'ls');
  });

  it('sets env for the command alone', () => {
    assert.equal(commandLine(req({ env: [{ name: 'A', value: 'x y' }] }), '/w', '/w'), `A='x y' ls`);
  });

  it('refuses a relative cwd, a bad variable name and an empty command', () => {
    assert.throws(() => commandLine(req({ cwd: 'sub' }), '/w', '/w'), /absolute/);
    assert.throws(
      () => commandLine(req({ env: [{ name: 'A;rm', value: '' }] }), '/w', '/w'),
      /variable name/,
    );
    assert.throws(() => commandLine(req({ command: '  ' }), '/w', '/w'), /empty/);
  });

  it("reads the output and exit code from the terminal tool's result, without its notes", () => {
    assert.deepEqual(endedTerminal('one\ntwo\n[The command completed with exit code 3.]'), {
      output: 'one\ntwo',
      truncated: false,
      exitStatus: { exitCode: 3, signal: null },
    });
    assert.deepEqual(
      endedTerminal(
        '(no output)\n[The command completed with exit code 0.]\n[Working directory is now /w/a]',
      ),
      { output: '', truncated: false, exitStatus: { exitCode: 0, signal: null }, movedTo: '/w/a' },
    );
    assert.deepEqual(
      endedTerminal('x\n[Timed out after 600 s: sent Ctrl+C.]\n[The command completed with exit code 130.]')
        ?.exitStatus,
      { exitCode: null, signal: 'SIGINT' },
    );
  });

  it('is no run when the result has no exit code: refused, rejected or still running', () => {
    assert.equal(endedTerminal('Refused: the conversation is in plan mode.'), undefined);
    assert.equal(endedTerminal('The user rejected this action.'), undefined);
    assert.equal(
      endedTerminal('x\n[The command is still running after 30 s (exit code -1). Send...]'),
      undefined,
    );
  });

  it('outputByteLimit keeps the last bytes, never half a character', () => {
    const r = endedTerminal('aé€\n[The command completed with exit code 0.]', 4);
    assert.deepEqual([r?.output, r?.truncated], ['€', true]);
    assert.equal(endedTerminal('abc\n[The command completed with exit code 0.]', 3)?.truncated, false);
  });
});
