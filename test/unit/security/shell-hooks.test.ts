import assert from 'node:assert/strict';
import { shellHookIn } from '../../../src/core/security/shell-hooks';

describe('shellHookIn: commands that would leave a hook in the user’s shell', () => {
  const planted: [string, RegExp][] = [
    [`PS1='$(touch x)'`, /sets PS1/],
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
    [`eval 'PS1=x'`, /sets PS1/],
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
    'source .venv/bin/activate && pip install x',
    "bash -c 'PS1=x; trap t DEBUG'",
    'npm test',
  ];
  for (const command of harmless) {
    it(`lets ${command} through`, () => assert.equal(shellHookIn(command), undefined));
  }
});
