// A hook's command line often names a script of the repository (`"$CLAUDE_PROJECT_DIR"/scripts/
// check.sh`). Such a script runs outside the sandbox, but the agent may write it like any workspace
// file: so its content is pinned. A repository's hooks are accepted with the digests of the scripts
// they name (a change asks again), and before each run a named script that changed since the
// session began fails the hook instead of running (for a PreToolUse hook: the action does not run).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { HookExecPort } from '../../../core/hooks/hook-runner';

export interface PinnedScript {
  file: string;
  sha256: string;
}

const PROJECT_VARIABLE = /\$\{?(CLAUDE_PROJECT_DIR|LOGBOOK_PROJECT_DIR)\}?/g;

/** The workspace's files a command line names, with their content's digest now. */
export function pinnedScripts(command: string, workspace: string): PinnedScript[] {
  const root = path.resolve(workspace);
  const out: PinnedScript[] = [];
  for (const word of command.replace(PROJECT_VARIABLE, root).split(/[\s;&|()<>]+/)) {
    const bare = word.replace(/['"]/g, '');
    if (!bare || bare.startsWith('-')) continue;
    const file = path.resolve(root, bare);
    if (file !== root && !file.startsWith(root + path.sep)) continue;
    const sha256 = digestOf(file);
    if (sha256 && !out.some((p) => p.file === file)) out.push({ file, sha256 });
  }
  return out;
}

function digestOf(file: string): string | undefined {
  try {
    if (!fs.statSync(file).isFile()) return undefined;
    return crypto.hash('sha256', fs.readFileSync(file), 'hex');
  } catch {
    return undefined;
  }
}

/** The exec port with each command's named scripts checked against their digests at the session's start. */
export function pinningExec(inner: HookExecPort, workspace: string): HookExecPort {
  const pins = new Map<string, PinnedScript[]>();
  return {
    run: async (command, stdin, opts) => {
      let pinned = pins.get(command);
      if (!pinned) pins.set(command, (pinned = pinnedScripts(command, workspace)));
      const changed = pinned.find((p) => digestOf(p.file) !== p.sha256);
      if (changed)
        return {
          exitCode: null,
          stdout: '',
          stderr: '',
          timedOut: false,
          durationMs: 0,
          spawnError: `${changed.file}, which it runs, changed since this session began (not run: the agent may have written it)`,
        };
      return inner.run(command, stdin, opts);
    },
  };
}
