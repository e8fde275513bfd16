// Commands whose effect lands outside the machine on hosts the sandbox already lets through: a push
// or a release reaches the same registry an install downloads from, so the network filter cannot
// tell them apart and no checkpoint can take them back. They always ask in the default mode.
// Named by words, not by parsing: a mention in a quoted message asks too, which errs on the safe side.

/** Program, then the sub-commands that publish (empty: every use of the program acts outside). */
const OUTSIDE: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['git', ['push', 'send-email', 'svn', 'p4']],
  ['npm', ['publish', 'unpublish', 'deprecate', 'dist-tag', 'owner', 'access']],
  ['pnpm', ['publish']],
  ['yarn', ['publish', 'npm']],
  ['bun', ['publish']],
  ['docker', ['push', 'login']],
  ['podman', ['push', 'login']],
  ['cargo', ['publish', 'yank', 'owner']],
  ['twine', ['upload']],
  ['poetry', ['publish']],
  ['uv', ['publish']],
  ['flit', ['publish']],
  ['hatch', ['publish']],
  ['gem', ['push', 'yank', 'owner']],
  ['dotnet', ['nuget']],
  ['mvn', ['deploy']],
  ['gradle', ['publish']],
  ['helm', ['push', 'install', 'upgrade', 'uninstall']],
  ['kubectl', ['apply', 'create', 'delete', 'patch', 'replace', 'scale', 'rollout', 'set', 'edit']],
  ['terraform', ['apply', 'destroy', 'import']],
  ['gh', []],
  ['glab', []],
  ['aws', []],
  ['gcloud', []],
  ['az', []],
  ['vercel', []],
  ['netlify', []],
  ['heroku', []],
  ['fly', []],
  ['flyctl', []],
  ['firebase', []],
  ['wrangler', []],
  ['ssh', []],
  ['scp', []],
  ['rsync', []],
  ['sftp', []],
];

/** The read-only `gh`/`glab` queries that need no question of their own. */
const FORGE_READS: ReadonlySet<string> = new Set(['view', 'list', 'status', 'diff', 'checks', 'search']);

/** `gh pr view 12`, `gh status`: a query of the forge, not a change to it. */
function forgeRead(rest: readonly string[]): boolean {
  const [group, action] = rest;
  if (group === 'status' || group === 'search') return true;
  return group !== 'api' && action !== undefined && FORGE_READS.has(action);
}

/** What in the command acts outside the machine (e.g. "git push"), or undefined. */
export function outsideEffect(command: string): string | undefined {
  for (const segment of command.split(/[;&|\n()`]+/)) {
    const words = segment
      .split(/[\s'"{}<>=\\]+/)
      .filter((w) => w !== '')
      .map((w) => w.slice(w.lastIndexOf('/') + 1));
    for (const [index, word] of words.entries()) {
      const entry = OUTSIDE.find(([program]) => program === word);
      if (!entry) continue;
      const rest = words.slice(index + 1);
      const [program, subs] = entry;
      if (subs.length === 0) {
        if ((program === 'gh' || program === 'glab') && forgeRead(rest)) continue;
        return program;
      }
      const sub = rest.find((w) => subs.includes(w));
      if (sub) return `${program} ${sub}`;
    }
  }
  return undefined;
}
