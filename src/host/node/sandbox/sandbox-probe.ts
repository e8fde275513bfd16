// Whether a sandbox can start on this machine, and if not, why and how to fix it. Checked once per
// process by starting a real one (the only reliable test: distributions restrict user namespaces
// in several ways), then remembered.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ENGLISH, type L10n } from '../../../core/text/l10n';
import {
  filteredLaunch,
  hostIds,
  outerIds,
  socketFilterSupported,
  type SocketFilterMissing,
} from './unix-socket-filter';

export type SandboxSetting = 'auto' | 'required' | 'off';

/** Why no sandbox can start and how to fix it, in a host's words. */
export interface SandboxProblem {
  problem: string;
  fix: string;
}

/** The problem in English, with the words to say it again in the editor's language. */
export type SaidProblem = SandboxProblem & { say: (l10n: L10n) => SandboxProblem };

export type SandboxAvailability =
  | {
      available: true;
      bwrap: string;
      version: string;
      /** Why commands can reach Unix sockets outside (no seccomp filter here); absent: they cannot. */
      socketFilterMissing?: SocketFilterMissing;
    }
  | ({ available: false } & SaidProblem);

function said(say: (l10n: L10n) => SandboxProblem): SaidProblem {
  return { ...say(ENGLISH), say };
}

let cached: Map<string, SandboxAvailability> | undefined;

/**
 * The cached answer for this bwrap (default: the first `bwrap` on PATH), found the first time by
 * `probe` (default: probing now; the CLI's reads a verdict kept between processes, probe-cache.ts).
 */
export function sandboxAvailability(
  bwrap?: string,
  probe: (bwrap?: string) => SandboxAvailability = probeSandbox,
): SandboxAvailability {
  cached ??= new Map();
  const key = bwrap ?? '';
  let found = cached.get(key);
  if (!found) {
    found = probe(bwrap);
    cached.set(key, found);
  }
  return found;
}

export function probeSandbox(
  bwrapPath?: string,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): SandboxAvailability {
  if (platform !== 'linux') {
    return {
      available: false,
      ...said((l10n) => ({
        problem: l10n.t(
          "Logbook has no sandbox for {0} yet, so the agent's commands run with your permissions.",
          platformName(platform),
        ),
        fix:
          platform === 'win32'
            ? l10n.t(
                'Open the folder in WSL (Remote - WSL) and install bubblewrap there: sudo apt install bubblewrap.',
              )
            : l10n.t(
                'Run VS Code on Linux (a dev container or a remote machine) to have commands sandboxed.',
              ),
      })),
    };
  }
  const bwrap = bwrapPath ?? findExecutable('bwrap');
  if (!bwrap || !isExecutable(bwrap)) {
    return {
      available: false,
      ...said((l10n) => ({
        problem: l10n.t("bubblewrap (bwrap) is not installed, so the agent's commands cannot be sandboxed."),
        fix: l10n.t(
          'Install it: sudo apt install bubblewrap (Debian, Ubuntu), sudo dnf install bubblewrap (Fedora), sudo pacman -S bubblewrap (Arch).',
        ),
      })),
    };
  }
  const version = spawnSync(bwrap, ['--version'], { encoding: 'utf8', timeout: 5000 });
  if (version.error || version.status !== 0) {
    const why = version.error?.message ?? `exit ${version.status}`;
    return {
      available: false,
      ...said((l10n) => ({
        problem: l10n.t('{0} did not run ({1}).', bwrap, why),
        fix: l10n.t('Reinstall bubblewrap: sudo apt install --reinstall bubblewrap.'),
      })),
    };
  }
  const trial = (extra: string[], args: string[], command: string[]) =>
    spawnSync(
      bwrap,
      [
        '--unshare-user',
        ...extra,
        '--unshare-pid',
        '--unshare-net',
        '--cap-drop',
        'ALL',
        '--ro-bind',
        '/',
        '/',
        '--proc',
        '/proc',
        '--dev',
        '/dev',
        ...args,
        '--',
        ...command,
      ],
      { encoding: 'utf8', timeout: 10_000 },
    );
  const found = { available: true as const, bwrap, version: version.stdout.trim() };
  // The shape every launch has: the command under the nested bwrap that loads the socket filter.
  if (socketFilterSupported(arch)) {
    const ids = outerIds(hostIds());
    const filtered = trial(
      ['--uid', String(ids.uid), '--gid', String(ids.gid)],
      ['--as-pid-1'],
      filteredLaunch(bwrap, hostIds(), ['true']),
    );
    if (filtered.status === 0) return found;
    const plain = trial([], [], ['true']);
    if (plain.status === 0)
      return { ...found, socketFilterMissing: { nested: filtered.stderr.split('\n')[0] ?? '' } };
    return { available: false, ...namespaceProblem(`${plain.stderr || plain.error?.message || ''}`.trim()) };
  }
  const plain = trial([], [], ['true']);
  if (plain.status === 0) return { ...found, socketFilterMissing: { arch } };
  return { available: false, ...namespaceProblem(`${plain.stderr || plain.error?.message || ''}`.trim()) };
}

/** Why bubblewrap could not create its namespaces, read from the kernel's settings. */
function namespaceProblem(stderr: string): SaidProblem {
  // What bwrap said, as it said it: " (bwrap: …)".
  const heard = stderr ? ` (bwrap: ${stderr.split('\n')[0]})` : '';
  if (readSysctl('kernel/apparmor_restrict_unprivileged_userns') === '1') {
    return said((l10n) => ({
      problem: l10n.t('AppArmor stops bubblewrap from creating a user namespace{0}.', heard),
      fix: l10n.t(
        'Allow bwrap an AppArmor profile with the userns permission (Ubuntu 24.04: sudo apt install apparmor-profiles, then sudo ln -s /usr/share/apparmor/extra-profiles/bwrap-userns-restrict /etc/apparmor.d/ && sudo systemctl reload apparmor), or turn the restriction off: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0.',
      ),
    }));
  }
  if (readSysctl('kernel/unprivileged_userns_clone') === '0') {
    return said((l10n) => ({
      problem: l10n.t('Unprivileged user namespaces are turned off on this machine{0}.', heard),
      fix: l10n.t(
        'Turn them on: sudo sysctl -w kernel.unprivileged_userns_clone=1 (add it to /etc/sysctl.d/ to keep it).',
      ),
    }));
  }
  if (readSysctl('user/max_user_namespaces') === '0') {
    return said((l10n) => ({
      problem: l10n.t('User namespaces are limited to none on this machine{0}.', heard),
      fix: l10n.t('Allow some: sudo sysctl -w user.max_user_namespaces=10000.'),
    }));
  }
  return said((l10n) => ({
    problem: l10n.t(
      "bubblewrap could not create its namespaces{0}. In a container this needs the container's permission.",
      heard,
    ),
    fix: l10n.t(
      'In Docker, run the container with --security-opt seccomp=unconfined --security-opt apparmor=unconfined, or install bubblewrap setuid: sudo chmod u+s $(which bwrap).',
    ),
  }));
}

function readSysctl(name: string): string | undefined {
  try {
    return readFileSync(`/proc/sys/${name}`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Whether `p` is a file this process may execute. */
export function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` on PATH (or in /usr/bin, /bin). */
export function findExecutable(
  name: string,
  path: string | undefined = process.env['PATH'],
): string | undefined {
  const dirs = (path ?? '').split(delimiter).filter(Boolean);
  for (const dir of [...dirs, '/usr/bin', '/bin']) {
    const p = join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // next
    }
  }
  return undefined;
}

function platformName(platform: NodeJS.Platform): string {
  return platform === 'win32' ? 'Windows' : platform === 'darwin' ? 'macOS' : platform;
}
