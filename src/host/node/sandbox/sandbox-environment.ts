// The environment of a sandboxed process, built from scratch: a short list of variables programs
// need to behave (where things are, language, terminal), the names the user chose to pass, and
// what the host adds. Nothing else of the host's environment (keys, tokens, sockets) goes in.

/**
 * Tools' background update checks, off: they are never the agent's work, and behind the sandbox's
 * network rules each would ask the user about a host (npm asks registry.npmjs.org on `npm test`).
 * A name the user passes, or the host sets, wins.
 */
const NO_UPDATE_CHECKS: Readonly<Record<string, string>> = {
  NPM_CONFIG_UPDATE_NOTIFIER: 'false',
  NO_UPDATE_NOTIFIER: '1',
};

/** Taken from the host's environment when present. */
const BASE_VARIABLES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TERM',
  'COLORTERM',
];

export interface SandboxEnvironmentOptions {
  /** Names the user chose to hand to the agent (`logbook.terminal.passEnvironment`, `--pass-env`). */
  pass?: readonly string[];
  /** Set on top (the host's quiet-terminal settings, say). */
  extra?: Readonly<Record<string, string>>;
  /** The proxy inside the sandbox, when any host may be reached. */
  proxyUrl?: string;
}

export function sandboxEnvironment(
  host: Readonly<Record<string, string | undefined>>,
  opts: SandboxEnvironmentOptions = {},
): Record<string, string> {
  const env: Record<string, string> = { ...NO_UPDATE_CHECKS };
  const take = (name: string): void => {
    const value = host[name];
    if (value !== undefined) env[name] = value;
  };
  BASE_VARIABLES.forEach(take);
  for (const name of Object.keys(host)) if (name.startsWith('LC_')) take(name);
  (opts.pass ?? []).forEach(take);
  env['PATH'] ??= '/usr/local/bin:/usr/bin:/bin';
  env['TMPDIR'] = '/tmp';
  if (opts.proxyUrl) {
    for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'ALL_PROXY', 'all_proxy'])
      env[name] = opts.proxyUrl;
    env['NO_PROXY'] = env['no_proxy'] = 'localhost,127.0.0.1,::1';
  }
  return { ...env, ...opts.extra };
}
