// Commands that set variables: `export`, `declare -x` and its kin, `printf -v`, `read`, `env`.
// Setting a variable that picks programs (see dangerous-variables.ts) is MEDIUM however it is spelt.
import { afterOptions } from './argv-options';
import { assignedName, isDangerousVariable, setsVariableReason } from './dangerous-variables';
import { type Finding, low, medium, printsEnvironment } from './risk';
import type { ProgramRule } from './rule-types';

/** MEDIUM findings for the dangerous names among `names`. */
function dangerous(names: readonly (string | undefined)[]): Finding[] {
  return names
    .filter((n): n is string => n !== undefined && isDangerousVariable(n))
    .map((n) => medium(setsVariableReason(n)));
}

/** A bare name (`export PATH`) or an assignment (`export PATH=.`): the variable either way. */
function nameOf(word: string): string | undefined {
  return assignedName(word) ?? (/^[A-Za-z_]\w*$/.test(word) ? word : undefined);
}

export const exportCommand: ProgramRule = (args) => {
  const words = args.filter((a) => !a.startsWith('-'));
  if (words.length === 0) return [printsEnvironment()];
  const risky = dangerous(words.map(nameOf));
  return risky.length > 0 ? risky : [low('only sets shell variables')];
};

/** declare, typeset, local, readonly: `-x` exports, `-g` reaches globals, `-n` makes a name an alias. */
const declareCommand: ProgramRule = (args, _env, name) => {
  const options = args.filter((a) => /^[-+]/.test(a) && a !== '--');
  const words = args.filter((a) => !/^[-+]/.test(a));
  // `declare -n ref=PATH; ref=.` sets PATH under another name.
  if (options.some((o) => o.startsWith('-') && o.includes('n')))
    return [medium(`${name} -n makes one variable stand for another, which hides what is set`)];
  const risky = dangerous(words.map(nameOf));
  return risky.length > 0 ? risky : [low(`${name} only affects the shell`)];
};

/** `printf -v NAME fmt`: prints nothing, sets NAME. */
const printfCommand: ProgramRule = (args) => {
  const target = args[0] === '-v' ? args[1] : args[0]?.startsWith('-v') ? args[0].slice(2) : undefined;
  if (target === undefined) return [low('printf only reads')];
  const risky = dangerous([target.replace(/\[.*$/, '')]);
  return risky.length > 0 ? risky : [low('printf -v only sets a shell variable')];
};

/** `read [-a NAME] NAME...` and `mapfile`/`readarray` set the names they are given. */
const readCommand: ProgramRule = (args, _env, name) => {
  const withValue =
    name === 'read'
      ? ['-a', '-d', '-i', '-n', '-N', '-p', '-t', '-u']
      : ['-d', '-n', '-O', '-s', '-u', '-c', '-C'];
  const findings: Finding[] = [];
  if (name !== 'read' && args.some((a) => a.startsWith('-C')))
    findings.push(medium(`${name} -C runs a callback, which cannot be checked`));
  const names = args.filter((a, i) => !a.startsWith('-') && !withValue.includes(args[i - 1] ?? ''));
  if (name === 'read') names.push(...args.filter((_, i) => args[i - 1] === '-a'));
  findings.push(...dangerous(names.map(nameOf)));
  return findings.length > 0 ? findings : [low(`${name} only sets shell variables`)];
};

/** `let NAME=expr`: arithmetic that assigns. */
const letCommand: ProgramRule = (args) => {
  const risky = dangerous(args.map((a) => assignedName(a)));
  return risky.length > 0 ? risky : [low('let only affects the shell')];
};

export const envCommand: ProgramRule = (args, envRule) => {
  const split = args.findIndex(
    (a) => a === '-S' || a === '--split-string' || a.startsWith('--split-string='),
  );
  if (split !== -1) return envRule.ctx.analyzeText(args.slice(split + 1).join(' '));
  let rest = afterOptions(args, ['-u', '--unset', '-C', '--chdir']);
  const findings: Finding[] = [];
  while (rest[0] && assignedName(rest[0]) !== undefined) {
    findings.push(...dangerous([assignedName(rest[0])]));
    rest = rest.slice(1);
  }
  if (rest.length === 0) return [...findings, printsEnvironment()];
  return [...findings, ...envRule.ctx.analyzeArgv(rest, envRule.site, envRule.command)];
};

export const VARIABLE_RULES: Record<string, ProgramRule> = {
  export: exportCommand,
  env: envCommand,
  declare: declareCommand,
  typeset: declareCommand,
  local: declareCommand,
  readonly: declareCommand,
  printf: printfCommand,
  read: readCommand,
  mapfile: readCommand,
  readarray: readCommand,
  let: letCommand,
};
