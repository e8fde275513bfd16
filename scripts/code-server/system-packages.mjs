// What the first install of code-server needs from the system: it copies ripgrep and compiles the
// native modules of VS Code's server (node-gyp needs python3, make and g++; kerberos needs the
// krb5 headers). Checked up front so a missing package is named instead of a compiler error.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian package name → how to tell it is there. */
export const SYSTEM_PACKAGES = [
  { name: 'ripgrep', command: 'rg' },
  { name: 'python3', command: 'python3' },
  { name: 'make', command: 'make' },
  { name: 'g++', command: 'g++' },
  { name: 'libkrb5-dev', file: ['/usr/include/gssapi/gssapi.h', '/usr/include/gssapi.h'] },
];

function onPath(command) {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Names of the packages from SYSTEM_PACKAGES that are missing. */
export function missingSystemPackages() {
  return SYSTEM_PACKAGES.filter((p) =>
    p.command ? !onPath(p.command) : !p.file.some((f) => existsSync(f)),
  ).map((p) => p.name);
}

/** Throws an error that names what is missing and the command that installs it. */
export function requireSystemPackages() {
  const missing = missingSystemPackages();
  if (missing.length === 0) return;
  throw new Error(
    `Installing code-server (once, into .vscode-test/) needs these system packages: ${missing.join(', ')}.\n` +
      `On Debian or Ubuntu: sudo apt-get install ${missing.join(' ')}`,
  );
}
