// Help texts of the commands that reach an agent-server for a remote conversation (help.ts is full).

/** The option of approve, reject, diff, apply and fork for a conversation a runtime API started. */
export const RUNTIME_API_OPTION_HELP = `  --runtime-api URL      a remote conversation a runtime API started (logbook run --runtime-api):
                         ask that API (its key in LOGBOOK_RUNTIME_API_KEY) for the server's URL
                         and session key, instead of LOGBOOK_REMOTE_KEY; URL must be the API
                         remote.json names`;

/** The line `logbook --help` lists them with. */
export const REMOTE_OVERVIEW = `  fork                continue a remote or worktree task's conversation from an event, as a new one`;

export const REMOTE_HELP = {
  fork: `Usage: logbook fork [CONV_DIR] [--at ID]
       logbook fork TASK|CONV_DIR [--at ID] [--name NEW]

Asks the agent-server a conversation ran on (logbook run --remote) to copy it into a new
conversation of its own (POST /api/conversations/{id}/fork): the whole conversation, or with --at
the branch up to and including that event, the way to go back to an earlier point and go on from
there. The fork waits on the server, idle; its folder is made beside CONV_DIR (printed on stdout),
with its own signed log holding the events the server copied, each marked as received from it,
and its own remote.json. logbook run --remote URL --store DIR runs it on. The files in the working
folder on the server are shared, not copied: the fork goes on from them as they are.
Needs LOGBOOK_REMOTE_KEY (or --runtime-api).

A worktree task's conversation (its name, or its log) continues as a new task: a branch
logbook/NEW and a worktree of its own, from the task's base commit, holding the task's files as
they were at that event (from its checkpoints, the CLI's or the editor's) as uncommitted work, and
the conversation up to that event; the setup step then runs there, as for a new task. The task
itself is left as it was. The new task's log is printed on stdout; logbook run --store LOG
"MESSAGE" goes on there. Any other local conversation cannot be forked.

Options:
  --at ID         the last event the fork keeps (an event id, #INDEX, a unique prefix, start or
                  now, as for show --at); default: the whole conversation
  --name NEW      a worktree task's: the new task's name (default: the task's, numbered)
\${RUNTIME_API_OPTION_HELP}
  -h, --help      show this help

Exit codes: 0 forked; 1 a failure (the server refused or is gone, an unknown ID, a local conversation,
a setup step that failed: that task is kept).
See docs/REMOTE.md and docs/WORKTREES.md.`,
} as const;
