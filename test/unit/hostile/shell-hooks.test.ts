// A command can leave state in the persistent shell that makes a later, innocent-looking command
// run something else: the log would record `ls` while the hook ran. Each case plants one hook,
// then runs ordinary commands and checks the hook's mark file was never written. Each case first
// runs in a plain persistent bash fed the same way (the control), where the hook must fire: so a
// case that passes proves the reset, not a hook that never worked.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeTerminalPort } from '../../../src/host/node/ports/node-terminal-port';

interface HookCase {
  name: string;
  /** Plants the hook; `$MARK` is the file the hook touches when it fires. */
  plant: string;
  /** Ordinary commands run afterwards (default: `ls` and `echo`). */
  later?: string[];
}

const CASES: HookCase[] = [
  { name: 'PS1 with a command substitution', plant: `PS1='$(touch "$MARK")'` },
  { name: 'PS0 (printed before each command)', plant: `PS0='$(touch "$MARK")'` },
  { name: 'PROMPT_COMMAND', plant: `PROMPT_COMMAND='touch "$MARK"'` },
  { name: 'PROMPT_COMMAND as an array', plant: `PROMPT_COMMAND=(: 'touch "$MARK"')` },
  { name: 'trap DEBUG', plant: `trap 'touch "$MARK"' DEBUG` },
  {
    name: 'trap RETURN with functrace',
    plant: `set -o functrace; trap 'touch "$MARK"' RETURN`,
    later: ['. /dev/null'],
  },
  { name: 'trap ERR', plant: `trap 'touch "$MARK"' ERR`, later: ['ls /nonexistent-logbook-dir'] },
  {
    name: 'trap on a signal a background job sends',
    plant: `trap 'touch "$MARK"' USR1`,
    later: ['kill -USR1 $$; sleep 0.2'],
  },
  { name: 'alias ls', plant: `alias ls='touch "$MARK"; ls'` },
  { name: 'alias echo', plant: `alias echo='touch "$MARK"; echo'` },
  {
    name: 'hash -p',
    plant: `printf '#!/bin/sh\\ntouch "%s"\\n' "$MARK" > "$MARK.sh"; chmod +x "$MARK.sh"; hash -p "$MARK.sh" ls`,
  },
  { name: 'a function shadowing ls', plant: `ls() { touch "$MARK"; command ls "$@"; }` },
  { name: 'a function shadowing the echo builtin', plant: `echo() { touch "$MARK"; builtin echo "$@"; }` },
  {
    name: 'a function shadowing printf (the end marker)',
    plant: `printf() { touch "$MARK"; builtin printf "$@"; }`,
    later: ["printf '%s\\n' hi"],
  },
  {
    name: 'functions shadowing the reset: unset, trap, builtin, enable',
    plant: `unset() { :; }; trap() { :; }; builtin() { :; }; enable() { :; }; ls() { touch "$MARK"; }`,
  },
  {
    name: 'command_not_found_handle',
    plant: `command_not_found_handle() { touch "$MARK"; }`,
    later: ['logbook-no-such-command-x'],
  },
  {
    name: 'enable -n echo with an echo on PATH',
    plant: `mkdir -p "$MARK.d"; printf '#!/bin/sh\\ntouch "%s"\\n' "$MARK" > "$MARK.d/echo"; chmod +x "$MARK.d/echo"; enable -n echo; PATH="$MARK.d:$PATH"`,
    later: ['echo hi'],
  },
  { name: 'extdebug with a DEBUG trap', plant: `shopt -s extdebug; trap 'touch "$MARK"; true' DEBUG` },
  { name: 'xtrace with PS4', plant: `PS4='$(touch "$MARK")'; set -x` },
  {
    name: 'BASH_ENV for the scripts of later commands',
    plant: `printf 'touch "%s"\\n' "$MARK" > "$MARK.rc"; export BASH_ENV="$MARK.rc"`,
    later: ['bash -c true'],
  },
  {
    name: 'ENV for later sh in POSIX mode',
    plant: `printf 'touch "%s"\\n' "$MARK" > "$MARK.rc"; export ENV="$MARK.rc"`,
    later: ['bash --posix -i -c true </dev/null'],
  },
  // Each command runs in a fresh child shell, so even what no reset could undo never reaches the
  // persistent one: it is not replaced.
  { name: 'a readonly PS1', plant: `readonly PS1='$(touch "$MARK")'; : ` },
  { name: 'a readonly function shadowing ls', plant: `ls() { touch "$MARK"; }; readonly -f ls` },
  { name: 'a disabled enable', plant: `enable -n enable; ls() { touch "$MARK"; }` },
];

/** The planting command, then each later one, in a plain persistent bash: the control. */
async function runUnprotected(dir: string, mark: string, commands: string[]): Promise<void> {
  const bash = spawn('bash', ['--noprofile', '--norc', '--noediting', '-i'], {
    cwd: dir,
    env: { ...process.env, MARK: mark, PS1: '' },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  const done = new Promise<void>((resolve) => bash.on('exit', () => resolve()));
  for (const command of commands) bash.stdin.write(`eval '${command.replace(/'/g, `'\\''`)}'\n`);
  bash.stdin.end('sleep 0.3; builtin exit 0\n');
  await done;
}

describe('hostile: hooks a command leaves in the persistent shell', function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'logbook-hooks-'));
    writeFileSync(join(dir, 'a.txt'), 'a\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const c of CASES) {
    const later = c.later ?? ['ls', 'echo done'];
    it(`${c.name}: does not fire in later commands`, async () => {
      const controlMark = join(dir, 'control-mark');
      await runUnprotected(dir, controlMark, [c.plant, ...later]);
      assert.ok(existsSync(controlMark), 'the control: in a plain persistent bash the hook fires');

      const mark = join(dir, 'mark');
      const port = new NodeTerminalPort({ cwd: dir, env: { MARK: mark } });
      try {
        const planted = await port.run(c.plant, { timeoutMs: 10_000 });
        assert.equal(planted.timedOut, false, planted.output);
        assert.doesNotMatch(planted.output, /replaced the shell/, 'the persistent shell never sees the hook');
        // A hook may fire while its own command ends (it is that command's doing); not later.
        rmSync(mark, { force: true });
        for (const command of later) {
          const result = await port.run(command, { timeoutMs: 10_000 });
          assert.equal(result.timedOut, false, `${command}: ${result.output}`);
        }
        const ls = await port.run('ls', { timeoutMs: 10_000 });
        assert.match(ls.output, /a\.txt/, 'ls lists the folder, as logged');
        assert.equal(existsSync(mark), false, 'the hook fired in a later command');
      } finally {
        port.dispose();
      }
    });
  }

  it('keeps what is not a hook: the folder and exported variables, not a helper function', async () => {
    const port = new NodeTerminalPort({ cwd: dir });
    try {
      await port.run('mkdir sub && cd sub && export KEPT=yes && greet() { echo "hi $1"; }', {
        timeoutMs: 10_000,
      });
      const result = await port.run('type -t greet || echo none; echo "$KEPT"; pwd', { timeoutMs: 10_000 });
      assert.equal(result.output, `none\nyes\n${join(dir, 'sub')}\n`);
      assert.equal(result.cwd, join(dir, 'sub'));
      const failed = await port.run('false', { timeoutMs: 10_000 });
      assert.equal(failed.exitCode, 1, 'the exit status is the command’s, not the reset’s');
    } finally {
      port.dispose();
    }
  });

  it('a readonly hook variable does not carry; the folder the command left does', async () => {
    const port = new NodeTerminalPort({ cwd: dir });
    try {
      await port.run('mkdir -p kept && cd kept && readonly PROMPT_COMMAND=:', { timeoutMs: 10_000 });
      const result = await port.run('pwd; echo "${PROMPT_COMMAND-unset}"', { timeoutMs: 10_000 });
      assert.equal(result.output, `${join(dir, 'kept')}\nunset\n`);
    } finally {
      port.dispose();
    }
  });
});
