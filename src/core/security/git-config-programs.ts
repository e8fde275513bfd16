// Whether the repository a git command runs in is configured to start programs of its own choosing:
// `core.fsmonitor` runs at every `git status`, `core.pager` at every `git log`, a diff driver's
// `textconv` at `git diff`... A workspace from elsewhere may carry such a `.git/config`, so a git
// command that only reads is not LOW there. This is the host's default answer for the analysis
// (CommandRiskOptions.gitConfigRunsPrograms): it reads the repository's own config files only
// (`.git/config`, a worktree's common config and config.worktree) and follows nothing else;
// `include.path` is itself reported, since what it pulls in is not read.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Keys (section.key, lower case; `*` for a subsection) whose value names a program git may start. */
const RUNS_PROGRAM = [
  'core.fsmonitor', 'core.pager', 'core.editor', 'core.askpass', 'core.sshcommand', 'core.gitproxy',
  'core.hookspath', 'core.alternaterefscommand', 'sequence.editor', 'diff.external', 'diff.*.textconv',
  'diff.*.command', 'merge.*.driver', 'filter.*.clean', 'filter.*.smudge', 'filter.*.process',
  'credential.helper', 'credential.*.helper', 'gpg.program', 'gpg.*.program', 'gpg.ssh.defaultkeycommand',
  'uploadpack.packobjectshook', 'include.path', 'includeif.*.path', 'pager.*', 'interactive.difffilter',
  'remote.*.uploadpack', 'remote.*.receivepack', 'web.browser', 'browser.*.cmd', 'browser.*.path',
  'man.*.cmd', 'man.*.path', 'difftool.*.cmd', 'difftool.*.path', 'mergetool.*.cmd', 'mergetool.*.path',
  'sendemail.sendmailcmd', 'sendemail.tocmd', 'sendemail.cccmd', 'trailer.*.command', 'trailer.*.cmd',
  'protocol.allow', 'protocol.*.allow',
]; // prettier-ignore
/** Keys that run a program only with some values: an alias or submodule update starting with `!`. */
const BANG_VALUE = ['alias.*', 'submodule.*.update'];
/** Keys whose boolean values are git's own behaviour, any other value a program (`core.fsmonitor=./x`). */
const UNLESS_BOOLEAN = new Set(['core.fsmonitor', 'pager.*']);
const BOOLEAN = /^(true|false|yes|no|on|off|1|0|)$/i;

/** A key with its subsection (if any) replaced by `*`, as in the lists above. */
function pattern(section: string, subsection: string | undefined, key: string): string {
  return `${section}${subsection === undefined ? '' : '.*'}.${key}`.toLowerCase();
}

/** `alias.*` matches `alias.st`; `diff.*.textconv` matches `diff.*.textconv` (a key with a subsection). */
function keyMatches(listed: string, key: string): boolean {
  const a = listed.split('.');
  const b = key.split('.');
  return a.length === b.length && a.every((part, i) => part === '*' || part === b[i]);
}

/** The first key of a config file's text that starts a program, or undefined. */
export function programKeyInConfig(text: string): string | undefined {
  let section = '';
  let subsection: string | undefined;
  for (const raw of text.replace(/\\\r?\n/g, '').split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(line);
    if (header) {
      // `[a.b]` is the old spelling of `[a "b"]`.
      const [name, dotted] = header[1]!.split(/\.(.*)/s);
      section = name!;
      subsection = header[2] ?? dotted;
      if (header[3]!.trim() === '') continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(header ? header[3]!.trim() : line);
    if (!entry || section === '') continue;
    const key = pattern(section, subsection, entry[1]!);
    const value = (entry[2] ?? '')
      .replace(/\s[#;].*$/, '')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    const full = `${section}${subsection === undefined ? '' : `.${subsection}`}.${entry[1]}`;
    const listed = (list: readonly string[]) => list.find((p) => keyMatches(p, key));
    if (listed(BANG_VALUE) && value.startsWith('!')) return full;
    const known = listed(RUNS_PROGRAM);
    if (known === undefined || (UNLESS_BOOLEAN.has(known) && BOOLEAN.test(value))) continue;
    return full;
  }
  return undefined;
}

/** The git directory of the repository `cwd` is in: a `.git` folder, a `.git` file's gitdir, or a bare repository. */
export function findGitDir(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    const kind = kindOf(dotGit);
    if (kind === 'directory') return dotGit;
    if (kind === 'file') {
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? '');
      if (pointer) return resolve(dir, pointer[1]!);
    }
    if (kindOf(join(dir, 'HEAD')) === 'file' && kindOf(join(dir, 'objects')) === 'directory') return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The repository's own config files: its config, a linked worktree's common config and config.worktree. */
function configFiles(gitDir: string): string[] {
  const common = readText(join(gitDir, 'commondir'));
  const files = [join(gitDir, 'config'), join(gitDir, 'config.worktree')];
  if (common !== undefined) files.push(join(resolve(gitDir, common.trim()), 'config'));
  return files;
}

const cache = new Map<string, { stamp: string; key: string | undefined }>();

/** The config key that makes git start a program in the repository around `cwd`, or undefined. */
export function gitConfigRunsPrograms(cwd: string): string | undefined {
  const gitDir = findGitDir(cwd);
  if (gitDir === undefined) return undefined;
  for (const file of configFiles(gitDir)) {
    const key = cachedKey(file);
    if (key !== undefined) return key;
  }
  return undefined;
}

function cachedKey(file: string): string | undefined {
  let stamp: string;
  try {
    const st = statSync(file);
    stamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return undefined; // no such file
  }
  const hit = cache.get(file);
  if (hit?.stamp === stamp) return hit.key;
  const text = readText(file);
  const key = text === undefined ? undefined : programKeyInConfig(text);
  cache.set(file, { stamp, key });
  return key;
}

function kindOf(path: string): 'file' | 'directory' | undefined {
  try {
    const st = statSync(path);
    return st.isDirectory() ? 'directory' : st.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
