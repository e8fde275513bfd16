// Help texts of the worktree tasks: `run --worktree`, `tasks`, `review`, `apply`, `discard` (help.ts
// is full).
import { RUNTIME_API_OPTION_HELP } from './help-remote';

/** The lines `logbook --help` lists them with (after agents). */
export const TASK_OVERVIEW = `  tasks               list the worktree tasks of this repository (run --worktree starts one)
  review              list a worktree task's change as numbered hunks; take back or accept them
  apply               merge a worktree task's change into this working tree
  discard             remove a worktree task's worktree and branch (its log is kept)`;

/** The options of `logbook run` for a task in its own worktree. */
export const WORKTREE_RUN_HELP = `  --worktree[=NAME]      run the task in a new git worktree of its own, on branch logbook/NAME,
                         made from HEAD outside your working tree (worktrees.dir, default
                         ~/.local/share/logbook/worktrees); your working tree is never written.
                         NAME (also: --worktree NAME "TEXT") defaults to the task's first words
                         and a short id. logbook tasks lists tasks; apply and discard end them.
                         worktrees.setup (LOGBOOK_WORKTREES_SETUP) and an accepted
                         .logbook/worktree-setup run there first, in the sandbox, recorded
  --carry                with --worktree: the uncommitted change of your working tree (staged,
                         unstaged and untracked files) is copied into the task's worktree; your
                         tree stays as it is`;

export const TASK_HELP = {
  tasks: `Usage: logbook tasks [--json]
       logbook tasks --prune [--yes]
       logbook tasks --accept-setup
       logbook tasks --stop-all

Lists the worktree tasks of the current folder's repository (logbook run --worktree starts one):
name, status, branch, files changed against the base, and cost. Statuses: starting, setting up
(its setup step runs), running, waiting (for a confirmation, a plan approval or a look), finished,
failed (error or stuck), crashed (its process is gone while starting, setting up or running:
worktree and log are kept, to look at and continue with logbook run --store LOG), missing (its worktree folder is gone), applied, discarded. A * marks a
task that waits for you.

Options:
  --json                 one JSON document: {"repository", "tasks": [...]}
  --prune                show what cleanup would do: git worktree prune for worktree folders that
                         are gone, and tasks whose worktree is gone (one whose branch holds
                         commits is kept). Nothing is changed without --yes
  --yes                  with --prune: do it
  --accept-setup         print the repository's .logbook/worktree-setup (as committed at HEAD) and
                         accept it as it is, to run before each new task's agent; a change asks again
  --stop-all             interrupt every running task's logbook run, as Ctrl+C in its terminal
                         would (its log records the pause; run --store LOG goes on). A task an
                         editor window runs is left to the window
  -h, --help             show this help

Tasks, logs and worktrees are kept under worktrees.dir (LOGBOOK_WORKTREES_DIR; default
$XDG_DATA_HOME/logbook/worktrees). logbook show, approve and reject take a task's name for its log.
See docs/WORKTREES.md.`,
  review: `Usage: logbook review TASK
       logbook review TASK --reject N[,M...] --digest DIGEST
       logbook review TASK --reject-file PATH [--reject-file PATH...]
       logbook review TASK --accept N[,M...] --digest DIGEST
       logbook review TASK --accept-file PATH [--accept-file PATH...]

Lists the task's change against its base (its branch logbook/TASK), file by file, as numbered
hunks, and the listing's digest. What the task left uncommitted in its worktree is first committed
on its branch, as logbook apply does. Colours only on a terminal.

With --reject, those hunks are taken back as the editor's review does: each is reverted in the
task's worktree and committed on its branch, one commit per hunk. --reject-file takes the task's
whole change to a file back (a file the task added is removed), one commit per file. logbook apply
then brings exactly the rest. --accept and --accept-file change nothing on the branch: they record
in the task's log that you reviewed and accepted those hunks or files, and on which commit. One kind
of decision per run. A running or discarded task is refused.

Options:
  --reject N[,M...]      the hunks to take back, by the listing's numbers
  --digest DIGEST        with --reject: the listing's digest; when the task changed since, nothing
                         is taken back (list it again and use its numbers)
  --reject-file PATH     a file as the listing names it (a path, never a pattern)
  --accept N[,M...]      the hunks you accept, by the listing's numbers (with --digest)
  --accept-file PATH     a file whose whole change you accept
  -h, --help             show this help

See docs/WORKTREES.md.`,
  apply: `Usage: logbook apply TASK|CONV_DIR [--force] [--links-outside]

Brings the task's change into the working tree of the current folder: what the task left
uncommitted in its worktree is first committed on its branch (logbook/TASK), then the branch is
merged with a merge commit (git merge --no-ff). The branch and worktree are kept.

Stops before doing anything when the task is still running, when a merge, cherry-pick or rebase is
under way here, or when this working tree has uncommitted changes to tracked files (untracked files
do not count). On a conflict it stops with git's conflict markers in the files and lists them;
nothing is resolved for you: resolve them and git commit, or git merge --abort.

Options:
  --force                merge over uncommitted changes here; git still refuses to overwrite a
                         file you changed that the task changed too
  --links-outside        CONV_DIR: also make the server's symlinks that lead outside this working
                         tree (each is printed with the real place it leads); never one that
                         leads where the sandbox hides or into .git
${RUNTIME_API_OPTION_HELP}
  -h, --help             show this help

CONV_DIR, the folder of a conversation that ran on an agent-server (logbook run --remote): the
server's change in its working folder (its git, against the commit HEAD was on at the start;
LOGBOOK_REMOTE_KEY or --runtime-api) is written
into this working tree, uncommitted, by the same rules: uncommitted changes here stop it unless
--force; a file changed here too is merged (git merge-file), and what does not merge is left with
conflict markers and listed (exit 1). See docs/REMOTE.md.`,
  discard: `Usage: logbook discard TASK

Removes the task's worktree (with anything uncommitted in it) and its branch logbook/TASK. The
conversation's log and the task's record are kept: logbook show TASK still reads it, logbook
verify still checks it. A running task is refused.`,
} as const;
