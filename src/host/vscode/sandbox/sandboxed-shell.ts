// The integrated terminal's own shell, started inside the sandbox without losing VS Code's shell
// integration. VS Code injects its integration (an `--init-file` argument and a few VSCODE_*
// variables, the nonce among them) only when the terminal's executable is named `bash`. So the
// terminal starts a generated script named `bash`, in a private folder, that execs bubblewrap with
// the launch's arguments and, inside, `env <those variables> bash <VS Code's arguments>`. Nothing
// else of the terminal's environment crosses: bwrap clears it, and the editor's handles
// (VSCODE_IPC_HOOK*, VSCODE_GIT_*, GIT_ASKPASS, the VSCODE_ENV_* collections) stay outside.
// The script runs once: it deletes itself before it execs, so the arguments it holds (a variable
// the user chose to pass, say) do not stay on disk.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shellQuote } from '../../node/ports/shell-sentinel';
import type { SandboxedLaunch } from '../../node/sandbox';

/**
 * What the terminal's environment may hand to the sandboxed shell: the shell-integration
 * variables VS Code sets for `bash`, and the terminal's own type. None is a way back to the editor.
 */
export const SHELL_INTEGRATION_VARIABLES = [
  'VSCODE_INJECTION',
  'VSCODE_NONCE',
  'VSCODE_SHELL_ENV_REPORTING',
  'VSCODE_SHELL_LOGIN',
  'VSCODE_STABLE',
  'TERM',
  'COLORTERM',
  'TERM_PROGRAM',
  'TERM_PROGRAM_VERSION',
];

/** The argv to ask CommandSandbox to launch: the script appends the variables and `bash "$@"`. */
export const LAUNCHER_INNER_ARGV = ['env'];

/** The script's text: `launch` must come from a request with LAUNCHER_INNER_ARGV. */
export function launcherScript(launch: SandboxedLaunch): string {
  return [
    '#!/bin/sh',
    "# Written by Logbook for one agent terminal: starts VS Code's bash inside the sandbox. Runs once.",
    'rm -f -- "$0"; rmdir -- "${0%/*}" 2>/dev/null',
    'set -- bash "$@"',
    ...SHELL_INTEGRATION_VARIABLES.map((n) => `[ -n "\${${n}+x}" ] && set -- "${n}=\$${n}" "$@"`),
    `exec ${[launch.file, ...launch.args].map(shellQuote).join(' ')} "$@"`,
    '',
  ].join('\n');
}

export interface ShellLauncher {
  /** The terminal's shellPath: an executable named `bash`. */
  readonly path: string;
  /** Removes the script if the terminal never ran it. */
  dispose(): void;
}

/** Writes the script into a new folder under `root` (created private: only this user can enter). */
export function writeShellLauncher(root: string, launch: SandboxedLaunch): ShellLauncher {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  chmodSync(root, 0o700);
  const dir = join(root, randomBytes(8).toString('hex'));
  mkdirSync(dir, { mode: 0o700 });
  const path = join(dir, 'bash');
  writeFileSync(path, launcherScript(launch), { mode: 0o700 });
  return { path, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
