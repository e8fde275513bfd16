// Programs that reach beyond the workspace: the network, other processes, disks, the machine.
import { hasOption, operands, optionValue, shortFlags } from './argv-options';
import { type Finding, high, low, medium } from './risk';
import type { ProgramRule } from './rule-types';

/** Programs whose output, piped into a shell or interpreter, is code from the network. */
export const DOWNLOADERS = new Set([
  'curl',
  'wget',
  'fetch',
  'http',
  'https',
  'aria2c',
  'xh',
  'nc',
  'ncat',
  'netcat',
]);

const curl: ProgramRule = (args, { ctx }) => {
  const findings: Finding[] = [];
  const uploads =
    hasOption(args, 'T', 'upload-file') ||
    args.some((a, i) => {
      const previous = args[i - 1] ?? '';
      const value = /^(-d|--data|--data-binary|--data-raw|--data-urlencode|-F|--form|--json)$/.test(previous)
        ? a
        : '';
      return /(^|=)@[^@]/.test(value) || /^(-d|-F)@/.test(a) || /^--(data[\w-]*|form|json)=.*@/.test(a);
    });
  if (uploads) findings.push(high('sends a local file over the network'));
  const output = optionValue(args, 'o', 'output');
  if (output !== undefined) findings.push(...ctx.writeTarget(output));
  return [...findings, medium('downloads from or sends to the network')];
};

const wget: ProgramRule = (args, { ctx }) => {
  const findings: Finding[] = [];
  if (hasOption(args, null, 'post-file', 'body-file'))
    findings.push(high('sends a local file over the network'));
  const output = optionValue(args, 'O', 'output-document');
  if (output !== undefined) findings.push(...ctx.writeTarget(output));
  return [...findings, medium('downloads from the network')];
};

const network: ProgramRule = (args, _env, name) => {
  if (
    (name === 'nc' || name === 'ncat' || name === 'netcat') &&
    (shortFlags(args).has('e') || shortFlags(args).has('c'))
  ) {
    return [high(`${name} -e/-c connects a shell to the network`)];
  }
  return [medium(`${name} connects over the network`)];
};

const kill: ProgramRule = (args) => {
  // The first `-N`/`-SIG` is a signal; later negative numbers and 0 are process groups.
  const words = args[0]?.startsWith('-') && args[0] !== '--' ? args.slice(1) : args;
  const targets = words.filter((w) => w !== '--' && w !== '-s' && w !== '-n');
  if (targets.some((t) => t === '-1' || t === '0' || /^-\d+$/.test(t)))
    return [high('signals every process, or a whole process group')];
  if (args.includes('-l') || args.includes('-L')) return [low('kill -l only lists signals')];
  return [medium(`stops process ${operands(words).join(' ')}`)];
};

const killByName: ProgramRule = (_args, _env, name) => [high(`${name} stops every process matching a name`)];

const fuser: ProgramRule = (args) =>
  shortFlags(args).has('k')
    ? [high('fuser -k kills every process using a file')]
    : [low('fuser only lists processes')];

const crontab: ProgramRule = (args) =>
  args.includes('-l')
    ? [low('crontab -l only lists')]
    : [high('changes scheduled jobs, which keep running later')];

const systemctl: ProgramRule = (args) => {
  const sub = operands(args)[0] ?? '';
  if (['reboot', 'poweroff', 'halt', 'kexec', 'suspend', 'hibernate', 'rescue', 'emergency'].includes(sub)) {
    return [high(`systemctl ${sub} stops or restarts the machine`)];
  }
  if (sub === '' || /^(status|show|cat|list-.*|is-.*|help)$/.test(sub))
    return [low(`systemctl ${sub} only reads`)];
  return [medium(`systemctl ${sub} changes system services`)];
};

const power: ProgramRule = (_args, _env, name) => [high(`${name} shuts down or restarts the machine`)];
const init: ProgramRule = (args) =>
  ['0', '6'].includes(args[0] ?? '')
    ? [high('init 0/6 shuts down or restarts the machine')]
    : [medium('init changes the run level')];
const disk: ProgramRule = (_args, _env, name) => [high(`${name} changes disks or file systems`)];

export const SYSTEM_RULES: Record<string, ProgramRule> = {
  curl,
  wget,
  fetch: network,
  http: network,
  https: network,
  xh: network,
  aria2c: network,
  ssh: network,
  scp: network,
  sftp: network,
  rsync: network,
  ftp: network,
  telnet: network,
  nc: network,
  ncat: network,
  netcat: network,
  socat: network,
  kill,
  killall: killByName,
  pkill: killByName,
  fuser,
  crontab,
  systemctl,
  shutdown: power,
  reboot: power,
  halt: power,
  poweroff: power,
  init,
  mkfs: disk,
  mke2fs: disk,
  mkswap: disk,
  fdisk: disk,
  sfdisk: disk,
  cfdisk: disk,
  gdisk: disk,
  parted: disk,
  wipefs: disk,
  swapon: disk,
  swapoff: disk,
  mount: disk,
  umount: disk,
  losetup: disk,
  cryptsetup: disk,
  diskutil: disk,
};
