// Package managers and publishing tools: installing and running scripts is MEDIUM (it runs code
// from the project or the registry), publishing or logging in is HIGH, queries are LOW.
import { hasOption, operands } from './argv-options';
import { type Finding, high, low, medium } from './risk';
import type { ProgramRule } from './rule-types';

const NODE_READ_ONLY = new Set([
  'ls', 'list', 'll', 'la', 'view', 'info', 'show', 'outdated', 'help', 'root', 'bin', 'prefix', 'why', 'explain',
  'search', 'audit', 'doctor', 'fund', 'licenses', 'docs', 'home', 'repo', 'whoami', 'ping', 'get',
]); // prettier-ignore
const NODE_PUBLISH = new Set([
  'publish',
  'unpublish',
  'deprecate',
  'dist-tag',
  'owner',
  'access',
  'token',
  'adduser',
  'login',
  'logout',
  'team',
  'org',
  'hook',
]);

const nodePackageManager: ProgramRule = (args, _env, name) => {
  if (args.length === 1 && /^(-v|--version|-h|--help)$/.test(args[0] as string))
    return [low(`${name} only prints information`)];
  const [sub = '', ...rest] = operands(args, ['--prefix', '-C', '--cwd', '--filter', '-w', '--workspace']);
  if (NODE_PUBLISH.has(sub) || (sub === 'npm' && rest[0] === 'publish'))
    return [high(`${name} ${sub} publishes a package or changes registry credentials`)];
  if (sub === 'config' || sub === 'set') {
    return rest[0] === 'get' || rest[0] === 'list' || rest[0] === 'ls'
      ? [low(`${name} config only reads`)]
      : [medium(`changes ${name} settings`)];
  }
  if (sub === 'audit' && rest.includes('fix')) return [medium(`${name} audit fix changes dependencies`)];
  if (NODE_READ_ONLY.has(sub)) return [low(`${name} ${sub} only reads`)];
  if (sub === 'dlx' || sub === 'exec' || sub === 'x')
    return [medium(`${name} ${sub} runs a package that may be downloaded`)];
  if (hasOption(args, 'g', 'global')) return [medium(`${name} ${sub} changes globally installed packages`)];
  if (sub === '') return [medium(`${name} installs dependencies and runs their scripts`)];
  return [medium(`${name} ${sub} runs project scripts or installs packages`)];
};

const packageRunner: ProgramRule = (_args, _env, name) => [
  medium(`${name} runs a package that may be downloaded`),
];

/** pip, cargo, gem, poetry, uv, go, composer... : publish is HIGH, queries LOW, the rest MEDIUM. */
function toolchain(publish: readonly string[], readOnly: readonly string[]): ProgramRule {
  return (args, _env, name) => {
    if (args.length === 1 && /^(-V|-v|--version|version|-h|--help|help)$/.test(args[0] as string)) {
      return [low(`${name} only prints information`)];
    }
    const sub = operands(args)[0] ?? '';
    if (publish.includes(sub))
      return [high(`${name} ${sub} publishes a package or changes registry credentials`)];
    if (readOnly.includes(sub)) {
      if (name === 'go' && sub === 'env' && (hasOption(args, 'w') || hasOption(args, 'u')))
        return [medium('go env -w/-u changes Go settings')];
      return [low(`${name} ${sub} only reads`)];
    }
    return [medium(`${sub ? `${name} ${sub}` : name} installs packages or runs project code`)];
  };
}

const systemPackages: ProgramRule = (args, _env, name) => {
  const sub = operands(args)[0] ?? '';
  if (['list', 'search', 'show', 'info', 'policy', 'depends', 'rdepends'].includes(sub))
    return [low(`${name} ${sub} only reads`)];
  return [medium(`${name} ${sub} installs, removes or updates system packages`)];
};

const docker: ProgramRule = (args, _env, name) => {
  const [sub = '', ...rest] = operands(args, ['-H', '--host', '--context', '-c', '--config']);
  if (
    [
      'ps',
      'images',
      'logs',
      'inspect',
      'version',
      'info',
      'stats',
      'top',
      'port',
      'diff',
      'history',
      'search',
    ].includes(sub)
  ) {
    return [low(`${name} ${sub} only reads`)];
  }
  if (sub === 'push') return [high(`${name} push publishes an image`)];
  if (sub === 'login') return [high(`${name} login stores registry credentials`)];
  if (sub === 'run' || sub === 'create' || sub === 'exec') {
    const findings: Finding[] = [];
    if (rest.includes('--privileged') || rest.some((a) => /^--(pid|net|network|ipc|userns)=host$/.test(a))) {
      findings.push(high('gives the container control of the host'));
    }
    if (
      args.some(
        (a, i) =>
          /^(-v|--volume|--mount)$/.test(args[i - 1] ?? '') &&
          /^\/(:|$)|^\/var\/run\/docker\.sock|src=\/,/.test(a),
      )
    ) {
      findings.push(high('mounts the host root or the Docker socket into the container'));
    }
    return [...findings, medium(`${name} ${sub} runs a container`)];
  }
  return [medium(`${name} ${sub} changes containers, images or volumes`)];
};

const gh: ProgramRule = (args) => {
  const [group = '', action = ''] = operands(args);
  if (
    ['list', 'view', 'status', 'diff', 'checks', 'search'].includes(action) ||
    group === 'status' ||
    group === 'search'
  ) {
    return [low(`gh ${group} ${action} only reads`)];
  }
  if (action === 'delete' || (group === 'auth' && action !== 'status'))
    return [high(`gh ${group} ${action} deletes or changes credentials`)];
  if (group === 'release' && action === 'create') return [high('gh release create publishes a release')];
  if (group === 'api')
    return hasOption(args, 'X', 'method') ||
      hasOption(args, 'f', 'field', 'raw-field', 'input') ||
      hasOption(args, 'F')
      ? [medium('gh api may change things on GitHub')]
      : [low('gh api reads from GitHub')];
  return [medium(`gh ${group} ${action} changes things on GitHub`)];
};

const publishOnly: ProgramRule = (args, _env, name) =>
  operands(args)[0] === 'publish' || operands(args)[0] === 'upload'
    ? [high(`${name} publishes a package`)]
    : [medium(`${name} packages or manages an extension`)];

export const PACKAGE_RULES: Record<string, ProgramRule> = {
  npm: nodePackageManager,
  pnpm: nodePackageManager,
  yarn: nodePackageManager,
  bun: nodePackageManager,
  npx: packageRunner,
  pnpx: packageRunner,
  bunx: packageRunner,
  pip: toolchain(['upload'], ['list', 'show', 'freeze', 'check', 'search', 'index', 'inspect']),
  pip3: toolchain(['upload'], ['list', 'show', 'freeze', 'check', 'search', 'index', 'inspect']),
  pipx: toolchain([], ['list']),
  uv: toolchain(['publish'], ['tree']),
  poetry: toolchain(['publish'], ['show', 'check', 'env']),
  twine: toolchain(['upload', 'register'], ['check']),
  cargo: toolchain(
    ['publish', 'yank', 'owner', 'login', 'logout'],
    ['tree', 'metadata', 'search', 'locate-project', 'pkgid', 'verify-project'],
  ),
  gem: toolchain(
    ['push', 'yank', 'owner', 'signin', 'signout'],
    ['list', 'search', 'info', 'query', 'contents', 'environment'],
  ),
  go: toolchain([], ['version', 'env', 'list', 'doc']),
  composer: toolchain([], ['show', 'info', 'outdated', 'licenses', 'depends', 'why', 'search']),
  brew: toolchain([], ['list', 'info', 'search', 'outdated', 'deps', 'leaves', 'config', 'doctor']),
  apt: systemPackages,
  'apt-get': systemPackages,
  'apt-cache': () => [low('apt-cache only reads')],
  dnf: systemPackages,
  yum: systemPackages,
  pacman: systemPackages,
  apk: systemPackages,
  docker,
  podman: docker,
  gh,
  vsce: publishOnly,
  ovsx: publishOnly,
};
