// Where the agent's commands run: the sandbox's mode, network and the folders it may read, write or
// reach sockets in. Apart from schema.ts because these guard the machine and are read together.
import { choice, flag, list } from './kinds';
import { BOTH, setting, type SettingDef } from './setting-def';

export const SANDBOX_SETTINGS: readonly SettingDef[] = [
  setting({
    key: 'sandbox.mode',
    kind: choice(['auto', 'required', 'off']),
    default: 'auto',
    hosts: BOTH,
    guards: true,
    scope: 'machine',
    env: ['LOGBOOK_SANDBOX'],
    flag: { name: 'sandbox' },
    description:
      "Whether the agent's commands (its terminal) run in a sandbox (bubblewrap, Linux): there only the workspace folders (and `logbook.sandbox.writable`) can be written, the home folders are empty but for toolchains (`logbook.sandbox.homeReadable`), secrets such as `~/.ssh` and the editor's own data are unreadable, no other process is visible and the network reaches only `logbook.sandbox.allowedHosts` (others are asked for). Plan mode makes the workspace read-only too. A machine setting: a repository's own settings cannot change it. Applies to conversations opened after the change. `Logbook: Show Sandbox Status` lists what is allowed.",
  }),
  setting({
    key: 'sandbox.allowedHosts',
    kind: list(),
    default: [],
    hosts: BOTH,
    guards: true,
    scope: 'machine',
    env: ['LOGBOOK_SANDBOX_ALLOW_HOSTS'],
    flag: { name: 'allow-host' },
    adds: true,
    description:
      "Hosts the agent's sandboxed commands may reach through Logbook's proxy, e.g. `registry.npmjs.org`, or `*.pythonhosted.org` for a domain and its subdomains. Another host is asked for: Allow (this conversation), Always Allow (added here) or Deny. A machine setting.",
  }),
  setting({
    key: 'sandbox.denyRead',
    kind: list(),
    default: [],
    hosts: BOTH,
    guards: true,
    scope: 'machine',
    env: ['LOGBOOK_SANDBOX_DENY_READ'],
    flag: { name: 'deny-read' },
    adds: true,
    description:
      "More files and folders the sandboxed commands cannot read, besides the built-in list (`~/.ssh`, `~/.aws`, `~/.config/gh`, the editor's data, …). `~` is your home folder; a relative path is taken from it. A machine setting.",
  }),
  setting({
    key: 'sandbox.homeReadable',
    kind: list(),
    default: [],
    hosts: BOTH,
    guards: true,
    scope: 'machine',
    env: ['LOGBOOK_SANDBOX_HOME_READABLE'],
    flag: { name: 'home-readable' },
    adds: true,
    description:
      'More files and folders of your home folder that sandboxed commands may read (read-only). Inside the sandbox every home folder is empty but for the toolchains on the built-in list (`.npm`, `.cache`, `.cargo`, `.rustup`, `.pyenv`, `.nvm`, `.local/bin`, `.local/lib`, `.gitconfig`, …); add what your tools need, e.g. `.m2/repository` or `go/pkg/mod`. `~` is your home folder; a relative path is taken from it. The unreadable locations (`~/.ssh`, `logbook.sandbox.denyRead`, …) stay hidden inside them. A machine setting.',
  }),
  setting({
    key: 'sandbox.writable',
    kind: list(),
    default: [],
    hosts: BOTH,
    guards: true,
    scope: 'machine',
    env: ['LOGBOOK_SANDBOX_WRITABLE'],
    flag: { name: 'writable' },
    adds: true,
    description:
      'Folders besides the workspace that sandboxed commands, and the agent’s file edits, may write, such as a build cache (`~/.cache/pip`). Absolute paths or `~/…`. A machine setting.',
  }),
  setting({
    key: 'sandbox.allowUnixSockets',
    kind: flag(),
    default: false,
    hosts: BOTH,
    guards: true,
    scope: 'machine',
    env: ['LOGBOOK_SANDBOX_ALLOW_UNIX_SOCKETS'],
    description:
      "Let the sandboxed commands create Unix sockets of their own (off by default: a seccomp filter refuses them, so a command cannot connect to a listening socket of another program, such as a container engine's or the editor's, that the sandbox can see). Turn it on for tools that listen on a socket of their own inside the sandbox (some test runners, language servers, database servers started by a test). It gives that up: a command may then connect to any socket in a folder it can see (outside `/tmp`, `/var/tmp` and `/run`, which the sandbox replaces) and talk to the program behind it, outside the sandbox. A machine setting. Applies to conversations opened after the change.",
  }),
];
