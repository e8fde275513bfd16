// Help texts: one per command, and the overview `logbook --help` prints.
import { TASK_HELP, TASK_OVERVIEW, WORKTREE_RUN_HELP } from './help-tasks';
import { REMOTE_HELP, REMOTE_OVERVIEW, RUNTIME_API_OPTION_HELP } from './help-remote';
import {
  EXIT_CODES_HELP,
  LLM_ENV_HELP,
  CHECKPOINT_ENV_HELP,
  CONV_DIR_HELP,
  POINT_HELP,
  PASS_ENV_HELP,
} from './help-parts';

export { EXIT_CODES_HELP };

export const COMMAND_HELP = {
  agents: `Usage: logbook agents [--workspace DIR] [--mcp-config FILE] [--json]
       logbook agents accept NAME [--workspace DIR]

Lists the agents the main agent can delegate to: the built-in explore agent (reads, changes
nothing), then the Markdown definitions in $XDG_CONFIG_HOME/logbook/agents/ and in the
workspace's .logbook/agents/ (a workspace's agent wins over a user's of the same name).
docs/AGENTS.md describes the format. A file that is not a valid definition is named on stderr,
with why, and the exit code is 1. A definition written or changed while a conversation ran is
listed as held: no conversation uses it until you accept it. \`accept NAME\` prints the held
definition of that agent and accepts it as it is.

Options:
  --workspace DIR   the workspace whose agents to list (default: the current folder)
  --mcp-config FILE the MCP servers a run would use: a definition naming a tool of a server
                    (server/tool, server/*) that the file does not configure is an error
  --json            one JSON object: {"agents": [...], "errors": [...], "held": [...]}`,
  doctor: `Usage: logbook doctor [--workspace DIR] [--mcp-config FILE] [--json]
       logbook doctor --clean-checkpoints [--older-than DAYS] [--yes]

The first place to look when something does not work. Shows in one place:
  Sandbox           whether the agent's commands run sandboxed here, and the fix when not
  Model             whether the endpoint answers (GET .../models with the key), whether the key is
                    set (never its value), and whether the endpoint offers the model
  MCP servers       the servers of --mcp-config FILE, started for the check and stopped: running
                    with their tools, or why they failed
  Signing identity  the did:key conversations are signed with, and where its key is (never the key)
  Storage           the space of each conversation under DIR/.logbook/conversations, and of the
                    checkpoint stores ($XDG_STATE_HOME/logbook/checkpoints by default)
Exit code 0 when nothing is an error, 1 otherwise.

Cleaning up: --clean-checkpoints lists the conversations whose newest checkpoint is older than
DAYS (default 30), asks, then releases their checkpoints: what no other conversation's checkpoints
use is deleted from the store. The conversations themselves stay; only restoring their files to
those points is no longer possible.

Options:
  --workspace DIR        the workspace to check (default: the current folder)
  --mcp-config FILE      MCP servers to start and check, as for run
  --sandbox, --allow-host, --deny-read, --home-readable, --writable  as for run
  --clean-checkpoints    release old checkpoints after asking
  --older-than DAYS      how old a conversation's newest checkpoint must be (default 30)
  --yes                  clean up without asking (needed when stdin is not a terminal)
  --json                 the report as one JSON object
  -h, --help             show this help

${LLM_ENV_HELP}`,
  config: `Usage: logbook config [--json]

Prints every setting as the commands resolve it here, each with where its value came from:
default, the config file, a variable (env NAME) or, for the commands that take one, a flag. Later
sources win: default < config file < environment < flags (approve, reject and resolve put what
the run recorded between the config file and the environment). The API key shows only as set or
unset. A bad value is an error that names its source.

The config file is $XDG_CONFIG_HOME/logbook/config.json (~/.config/logbook/config.json), a JSON
object keyed by setting, e.g. {"model.name": "llama3.2", "sandbox.mode": "required"}. It holds no
API key: that stays in LOGBOOK_API_KEY (or OPENAI_API_KEY). docs/SETTINGS.md lists the settings.

Options:
  --json   one JSON object: the config file's path, and each setting's value and sources`,
  sandbox: `Usage: logbook sandbox [--workspace DIR] [--sandbox MODE] [--json]

Says whether the agent's commands can run in a sandbox here, and if not, why and how to fix it;
then lists what the sandbox allows: writable folders, hidden secret locations, allowed hosts.
Exit code 0 when a sandbox starts, 1 when none can (the message names the fix).

Options:
  --workspace DIR        the workspace to describe (default: the current folder)
  --sandbox, --allow-host, --deny-read, --home-readable, --writable  as for run
  --json                 one JSON object
  -h, --help             show this help`,
  run: `Usage: logbook run "TEXT" [options]
       logbook run --workspace DIR --task TEXT [options]
       logbook run --store CONV_DIR --mode act                   (approve its plan)
       logbook run --demo "TEXT"                                 (the built-in demo model)

Starts a conversation in the current folder (or DIR), sends TEXT as the first message and runs the
agent, printing each event as it is recorded.

When the agent waits for your confirmation and you are at a terminal (stdin and stdout are
terminals, and neither --no-input nor --json is given), run asks in place: it shows each action
(a file edit as a unified diff, coloured unless NO_COLOR is set; a command in full), its risk and
why, then asks [y]es / [n]o / [a]lways allow / [s]how more. No asks for a reason the agent reads;
always allow (commands only) adds the command's start to confirmation.allowRules in your config
file and runs it. The answers are recorded as approve and reject record them, and the run goes on.
Otherwise run exits with code 2 and prints the diff and how to continue.

Options:
  TEXT, --task TEXT      what the agent should do (required, except to approve a plan as above)
  --workspace DIR        folder the agent works in (default: the current folder; with --store,
                         the folder the conversation ran in)
  --no-input             never ask in place: exit 2 when the agent waits, as in a script
  --confirmation-mode MODE
                         never | risky | always: when to stop and ask before acting (default
                         risky); the setting logbook.confirmation.mode in VS Code
  --confirm MODE         the same (an older name)
  --demo                 talk to the built-in demo model (the one npm start uses), which needs no
                         key: a scripted walkthrough of one task on the sample project (also
                         LOGBOOK_DEMO=1); approve and reject of its conversations use it again
  --mode plan|act        plan: the agent may only read and answers with a plan (a task list) to
                         approve; act: it may change things (default: the conversation's mode,
                         act for a new one). With --store and no --task, --mode act approves the
                         plan the conversation holds and carries it out
  --store DIR            conversation directory (default DIR/.logbook/conversations/<new id>;
                         in a git repository .logbook/ is added to .git/info/exclude)
  --agent NAME           run the external ACP agent NAME of acp.agents in the user's config file
                         instead of Logbook's own loop, in the sandbox; its writes and the
                         commands it asks Logbook to run are rated and asked like Logbook's own
                         (the commands in the sandboxed shell), and everything it says is recorded
                         (docs/ACP.md, "Other agents under Logbook")
  --remote URL           run on an OpenHands agent-server (key in LOGBOOK_REMOTE_KEY; --remote-dir
                         DIR: its working folder, default the workspace's path); every event is
                         logged here, marked with the server (docs/REMOTE.md); with --store
                         CONV_DIR and no task, resumes that remote conversation; with a task,
                         sends it as the conversation's next message (refused while it runs
                         or waits for an answer on the server); with --mode plan the server holds
                         every action and Logbook rejects what writes or runs (kept for the next
                         task; --mode act ends it)
  --runtime-api URL      ask a runtime API (a cluster) to start an agent-server for a new session
                         (its key in LOGBOOK_RUNTIME_API_KEY), wait until it is ready, then run
                         the task there as --remote does; --image IMAGE: the server's image
                         (default ghcr.io/openhands/agent-server:latest-python);
                         --runtime-timeout SECONDS: how long to wait for it (default 300); the
                         runtime keeps running afterwards unless --pause-runtime; with --store
                         CONV_DIR [task], asks the runtime API again for the server and its key
                         (resuming a paused runtime) and goes on as --remote --store does
  --max-iterations N     agent steps before it stops (default 100)
  --max-tool-calls N     tool calls of one model reply that run; the others get an error (default
                         32, or LOGBOOK_MAX_TOOL_CALLS)
  --json                 print each event as its stored JSON, one per line (the conversation
                         directory goes to stderr)
  --no-checkpoints       record no workspace checkpoints (also LOGBOOK_CHECKPOINTS=off)
${WORKTREE_RUN_HELP}
${PASS_ENV_HELP}
  -h, --help             show this help

${LLM_ENV_HELP}

${CHECKPOINT_ENV_HELP}

${EXIT_CODES_HELP}`,
  acp: `Usage: logbook acp [options]

Serves one editor over the Agent Client Protocol (ACP: JSON-RPC on stdin and stdout). The editor
starts this command and talks to it; nothing else is printed on stdout, and what \`logbook run\`
would print goes to stderr. Each ACP session is a conversation in the folder the editor names,
kept where \`logbook run\` keeps one (.logbook/conversations/<session id>), signed, with
checkpoints and the sandbox: \`logbook show\`, \`verify\` and \`restore\` work on it as on any
other. Actions your settings hold for confirmation become the editor's permission requests;
"Always allow" for a command adds its prefix to confirmation.allowRules in your config file.
Setup for each editor: docs/ACP.md.

Options:
  --confirmation-mode MODE
                         never | risky | always: when to ask before acting (default risky)
  --max-iterations N     agent steps of one turn before it stops (default 100)
  --max-tool-calls N     tool calls of one model reply that run (default 32)
  --no-checkpoints       record no workspace checkpoints (also LOGBOOK_CHECKPOINTS=off)
  --demo                 talk to the built-in demo model, which needs no key
  --mcp-config FILE, --sandbox MODE, --allow-host, --writable, ...
                         as for logbook run (see logbook run --help)
${PASS_ENV_HELP}
  -h, --help             show this help

${LLM_ENV_HELP}

${CHECKPOINT_ENV_HELP}`,
  show: `Usage: logbook show [CONV_DIR] [--at ID | --index N] [--json]

Prints the state of a conversation derived from its log: status, pending actions (a file edit with
the diff it would make to the file as it is now), tasks, metrics.
Reads without locking, so it works while an agent is running. A conversation whose process is gone
(killed or crashed during a step) shows as paused, "interrupted"; actions it left in doubt are
decided with \`logbook resolve\`. Events the log recorded and no longer has (a deleted segment file)
are reported as lost, with status data_lost, until \`logbook repair\` records the loss.

With --at, the state right after event ID instead (time travel): its status, mode, tokens and
cost, plan and pending actions as they were then (without diffs: the files are not those of then).
${POINT_HELP}

${CONV_DIR_HELP}

Options:
  --at ID      the state right after that event
  --index N    the same as --at #N
  --json       one JSON object: id, status, event_count, metrics, pending_actions (with the risk
               each is held at and why, and diff: a file edit's unified diff, else null), title,
               tasks, lost_events, accepted_losses...
               (with --at: the same fields and \`at\`, the event's index, id and time, and
               read_as: index, id or checkpoint, how ID was read)
  -h, --help   show this help`,
  approve: `Usage: logbook approve [CONV_DIR] [--json] [--no-input]

Approves the actions a conversation is waiting on and continues the run in the same workspace,
printing events as \`run\` does (and, at a terminal, asking in place as \`run\` does).
${CONV_DIR_HELP}

Options:
  --json                 print events as JSON lines
  --no-input             never ask in place: exit 2 when the agent waits again
${RUNTIME_API_OPTION_HELP}
${PASS_ENV_HELP}
  -h, --help             show this help

${EXIT_CODES_HELP}`,
  reject: `Usage: logbook reject [CONV_DIR] --reason TEXT [--json] [--no-input]

Rejects the actions a conversation is waiting on, telling the agent why, and lets it continue.
${CONV_DIR_HELP}

Options:
  --reason TEXT          why the actions were rejected; the agent reads it (required)
  --json                 print events as JSON lines
  --no-input             never ask in place: exit 2 when the agent waits again
${RUNTIME_API_OPTION_HELP}
${PASS_ENV_HELP}
  -h, --help             show this help

${EXIT_CODES_HELP}`,
  resolve: `Usage: logbook resolve CONV_DIR --rerun | --skip [--json]

Decides on the actions a crash left in doubt (\`show\` lists them: they started, but their result
was never recorded, so they may or may not have had their effect), then continues the run as
approve does. Nothing else runs them again. A run stopped with Ctrl+C, SIGTERM or SIGHUP leaves
nothing in doubt: continue it with \`logbook run --store CONV_DIR\`.

Options:
  --rerun      run them again
  --skip       do not run them; the agent reads that they were skipped
  --json       print events as JSON lines
  -h, --help   show this help

${EXIT_CODES_HELP}`,
  'import-openhands': `Usage: logbook import-openhands DIR|FILE --store STORE

Imports an OpenHands conversation into a new Logbook conversation directory STORE, from either
  DIR    an OpenHands SDK conversation (DIR/base_state.json and DIR/events/event-NNNNN-<id>.json):
         events are copied as they are
  FILE   an OpenHands V0 trajectory (a JSON array of V0 events, as OpenHands saves a trajectory):
         each event becomes its Logbook equivalent (commands, file edits, messages, observations)

Options:
  --store STORE   new conversation directory (must not hold a conversation yet) (required)
  -h, --help      show this help`,
  'export-openhands': `Usage: logbook export-openhands CONV_DIR DIR

Writes a Logbook conversation in the OpenHands SDK layout into DIR (new or empty): one file per
event, and base_state.json (the imported one if there was one, otherwise a minimal one).

Options:
  -h, --help   show this help`,
  repair: `Usage: logbook repair CONV_DIR [--accept-lost-events]

Checks a conversation's log for lost events: ones that meta.json, the indexes or the snapshots say
it held and whose segment files are gone (deleted, or restored from an older backup). Until the
loss is accepted, run, approve and reject refuse to write to the conversation, so nothing new is
written in place of the lost events. Restoring the missing files from a backup is the better fix.

Options:
  --accept-lost-events   record the loss (lost.json and a lost_events event in the conversation)
                         and let the conversation continue without those events
  -h, --help             show this help

Exit codes: 0 nothing lost or the loss recorded; 1 events are lost and nothing was changed.`,
  verify: `Usage: logbook verify CONV_DIR [--json] [--signer DID]...

Checks that a conversation is the one its signers wrote, and all of it: every event's record
against the hash chain in signatures.log, the chain against the Ed25519 signatures of the did:key
that signed it, the conversation id the chain is bound to, and the log's length against the signed
head kept outside the folder. \`run\`, \`approve\`, \`reject\`, \`resolve\`, \`restore\` and
\`import-openhands\` sign every event they write with the key in $LOGBOOK_SIGNING_KEY, else
$XDG_CONFIG_HOME/logbook/signing-key.pem (~/.config/...), created the first time (mode 0600), and
keep each conversation's head in $XDG_CONFIG_HOME/logbook/heads/. Names the first bad event (index
and id) and why: content changed, removed, inserted, reordered, signature invalid, spliced (the
chain is another conversation's), rewritten (not the head kept outside), unsigned; a record whose
checksum fails is reported as corrupt (damage, not tampering). Signers are named "you" (your key),
by the name on your trust list (logbook trust), or as an unknown signer.

A folder with no head kept outside it (copied, moved or imported) cannot be proven complete:
verify says so, and vouches only for the events present.

Options:
  --json         print the result as one JSON object (verdict, completeness, signers' standing)
  --signer DID   trust only this signer (repeatable), instead of your key and trust list
  -h, --help     show this help

Exit codes: 0 every event verified, signed by you or a known signer (completeness proven, or said
to be unprovable); 1 a bad event (tampered, spliced, rewritten or corrupt) or the check could not
run; 3 intact but not every event was signed when written (an older, unsigned conversation);
4 truncated: signed events recorded outside the folder are gone; 5 signed by an unknown signer.`,
  trust: `Usage: logbook trust add DID --name NAME
       logbook trust remove DID
       logbook trust list

The signers you know, by name: \`logbook verify\` says "signed by you" for your own key, names the
signers on this list, and reports any other did:key as an unknown signer (exit 5). The list is
$XDG_CONFIG_HOME/logbook/trusted-signers.json (~/.config/...); VS Code reads the same file. A
colleague's did:key is in their \`logbook trust list\` ("you") or VS Code's badge tooltip.

Options:
  --name NAME   what verify calls the signer (add)
  -h, --help    show this help

Exit codes: 0 done; 1 a bad did:key, an unknown action, or a failure.`,
  hooks: `Usage: logbook hooks [list] [--workspace DIR]
       logbook hooks accept [--workspace DIR]

Hooks are your own programs, run as you (outside the sandbox) before and after the agent's steps,
in Claude Code's shape (docs/HOOKS.md): your \`hooks\` setting, and a repository's
.claude/settings.json (its "hooks" key) and .logbook/hooks.json. A repository's hooks run only once
you accept them as they are: \`list\` prints every hook and whether it is accepted; \`accept\`
prints the repository's command lines and accepts them. A change to them asks again.

Options:
  --workspace DIR   the workspace (default: the current folder)
  -h, --help        show this help

Exit codes: 0 done; 1 a hook file that does not fit the schema, or a failure.`,
  checkpoints: `Usage: logbook checkpoints [CONV_DIR] [--json | --release]

Lists the workspace checkpoints a conversation recorded: the files as they were before each action
that could change them (and before each restore). Per checkpoint: the index and id of its event,
the checkpoint's id, its time, how many files differ from the checkpoint before, and what it
precedes: the action's tool and its command or path, or a restore. Under it, when recorded, the
checkpoint of the files the action left (its \`[checkpoint] … after the action\` line). The first
checkpoint, compared with nothing, shows "start": the files as the agent found them.
${CONV_DIR_HELP}

Options:
  --json       print them as one JSON array (each with action: {tool, what} or null,
               after: {index, id, checkpoint} or null, and starting_state: true for the first)
  --release    let go of the conversation's checkpoints (before deleting its folder); what other
               conversations' checkpoints share stays in the store
  -h, --help   show this help

${CHECKPOINT_ENV_HELP}`,
  restore: `Usage: logbook restore [CONV_DIR] --at ID [--yes]

Puts the files of the workspace the conversation ran in back as they were at ID: a checkpoint
event, an action (the files before it ran) or any other event (the first checkpoint after it).
${POINT_HELP}
${CONV_DIR_HELP}
Lists what it will create, overwrite and delete, marking files edited outside the agent after that
point (by the user or another program, known from the files recorded after each action), then asks.
Files the checkpoint does not hold
(ignored, excluded, over the size cap) stay as they are. The files as they were before are recorded
as a new checkpoint event, so a restore can be undone with another restore.

Options:
  --at ID         where to go back to (required; logbook checkpoints lists the ids)
  -y, --yes       restore without asking
  -h, --help      show this help

Exit codes: 0 restored (or nothing to restore); 1 not confirmed (any answer but y, or no answer:
nothing was restored), or a failure.`,
  diff: `Usage: logbook diff [CONV_DIR] --from ID --to ID [--stat]

Prints the changes to the workspace's files between two points of a conversation as a unified
diff, from the file checkpoints its log recorded (logbook diff --from start --to now: everything
the agent changed). ${POINT_HELP}
${CONV_DIR_HELP}
A checkpoint id names its files;
the files at an event are those of the first checkpoint at or
after it (for an action: the files before it ran); after the agent's last change, those the last
action left (or the files now, when the conversation recorded no after-states). Files a checkpoint
does not hold (ignored, excluded, over the size cap) are not compared; a file with a NUL byte shows
as "Binary files ... differ".

Options:
  --from ID       the earlier point (required, but for a remote conversation)
  --to ID         the later point (required, but for a remote conversation)
  --stat          only the changed files, one a line: A added, M modified, D deleted, R renamed
                  (old -> new), T type changed
${RUNTIME_API_OPTION_HELP}
  -h, --help      show this help

A conversation that ran on an agent-server (logbook run --remote) has one diff: the server's
change in its working folder now (its git, against the commit HEAD was on when it started, so
what the agent committed is in it), without --from and --to; it needs
LOGBOOK_REMOTE_KEY (or --runtime-api). logbook apply CONV_DIR brings it into this working tree.

Exit codes: 0 printed (also when nothing changed); 1 a failure (unknown or ambiguous ID, no
checkpoints recorded, a checkpoint the store no longer holds).`,
  replay: `Usage: logbook replay [CONV_DIR] [--to ID] [--confirmation-mode never|risky|always] [--sandbox MODE] [--keep]
       [--workspace DIR]

Runs a recorded conversation again, as a regression test for the agent (after changing a tool, a
prompt or a dependency). The workspace is restored from the conversation's first checkpoint into a
new temp folder (printed first; the conversation's own workspace is never touched), the recorded
model replies are fed in order (no model, no network), the user's messages are sent as recorded,
and the tools run for real there, with the sandbox settings of \`run\`. Each tool call's new result
is compared with the recorded one, after normalising what differs between any two runs (the
workspace's and the log's folders, temp paths, ids, timestamps, durations). Prints the first
divergence (event index, the action, recorded and replayed result, the lines that differ), or
"replayed N actions, no divergence". Files the first checkpoint does not hold (ignored, excluded,
over the size cap, the workspace's .git) are not in the copy. MCP servers are not started.

A conversation that ran on an agent-server starts instead from the commit the server's HEAD was on
(remote.json's base_commit), taken from a local clone that has it: the folder of the clone that
stands for the server's working folder (--workspace, default the current folder). Its results came
from the server's tools: a command's output is compared as words with its exit code, another
tool's result by how it ended.

Options:
  --to ID                   replay only up to this point (an event index N or #N, an event id, a
                            checkpoint id, or a unique prefix, start or now, as for show --at):
                            later replies and messages are not sent, later calls not compared,
                            and delegated agents' logs are compared only on a whole replay
  --confirmation-mode MODE  confirmation in the copy (default never: every action runs); with
                            risky or always, the replay asks before running what waits
  --sandbox MODE, --allow-host HOST, --deny-read PATH, --home-readable PATH, --writable DIR
                            the sandbox, as for run
  --keep                    keep the temp folder (workspace/ and conversation/) to look at
  --workspace DIR           a remote conversation: the clone's folder for the server's (default .)
  -h, --help                show this help

Exit codes: 0 no divergence; 4 a divergence (or the replay stopped on an error the recording did
not); 1 a failure (no session.json, no checkpoint recorded, a remote conversation's base commit
missing here, bad usage).`,
  ...TASK_HELP,
  ...REMOTE_HELP,
} as const;

export type CommandName = keyof typeof COMMAND_HELP;

export const OVERVIEW = `Usage: logbook <command> [options]

Commands:
  doctor              check everything at once: sandbox, model, MCP servers, signing, storage
  run                 run the agent on a task in a workspace
  acp                 serve an editor (Zed, JetBrains, Neovim) over the Agent Client Protocol
  show                print a conversation's state
  approve             approve the waiting actions and continue
  reject              reject the waiting actions and continue
  resolve             re-run or skip the actions a crash left in doubt, and continue
  import-openhands    import an OpenHands SDK conversation or V0 trajectory
  export-openhands    export a conversation in the OpenHands SDK layout
  repair              report events a conversation's log lost; accept the loss to continue
  verify              check a conversation's signatures: no event changed, removed, reordered or cut off
  trust               name the signers you trust (add, remove, list)
  hooks               list the hooks that run here; accept a repository's hooks
  checkpoints         list the workspace checkpoints a conversation recorded
  restore             put the workspace's files back as they were at an event
  diff                print the workspace's changes between two points of a conversation
  replay              run a recorded conversation again on a copy; report the first divergence
  sandbox             say whether commands run sandboxed here, what it allows, how to fix it
  config              print the settings, each with where it came from
  agents              list the agents the main agent can hand work to
${TASK_OVERVIEW}
${REMOTE_OVERVIEW}

Options:
  -h, --help      show help (also: logbook <command> --help)
  -v, --version   print the version

Each command's compiled code is kept for its next start in $XDG_CACHE_HOME/logbook/compile-cache
(~/.cache/logbook/compile-cache; never in a temporary folder or a workspace);
LOGBOOK_NO_COMPILE_CACHE=1 turns that off.

${EXIT_CODES_HELP}`;
