// Every setting of Logbook, named once: its key (`logbook.KEY` in VS Code, `KEY` in the CLI's
// config file), kind, default and description, which hosts read it, its VS Code scope, and the
// environment variables and CLI flag that set it. package.json's `contributes.configuration` is
// checked against this list, and docs/SETTINGS.md is generated from it. The model's and the
// sandbox's settings, the two longest categories, are written in their own modules and spread here.
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import { parseHooks } from '../hooks/hook-config';
import { choice, decimal, flag, integer, list, object, orNull, text, variableNames } from './kinds';
import { MODEL_SETTINGS } from './model-settings';
import { SANDBOX_SETTINGS } from './sandbox-settings';
import { BOTH, CLI, setting, type SettingDef, VS } from './setting-def';

export type { Host, SettingDef } from './setting-def';

export const SETTINGS: readonly SettingDef[] = [
  ...MODEL_SETTINGS,
  setting({
    key: 'confirmation.mode',
    kind: choice(['never', 'risky', 'always']),
    default: 'risky',
    hosts: BOTH,
    guards: true,
    flag: { name: 'confirmation-mode', alias: 'confirm' },
    description:
      'When the agent must ask before running a tool call. `always` (Ask for everything): before every action but reads and searches inside the workspace. `risky` (Default): only what the boundary cannot hold; with the sandbox running and checkpoints on, what stays in the sandbox and a checkpoint can undo runs without a question. `never` (Autopilot): never asks; commands still run in the sandbox. The mode decides what is asked, never where the agent can write: the file tools write only in the workspace folders and `#logbook.sandbox.writable#`, in every mode. Plan mode only reads, whatever the mode.',
  }),
  setting({
    key: 'confirmation.allowRules',
    kind: list(),
    default: [],
    hosts: BOTH,
    guards: true,
    description:
      'Command prefixes that run without confirmation, e.g. `npm test`. Every part of a compound command must match a rule; commands the rules rate HIGH risk still ask.',
  }),
  setting({
    key: 'maxIterations',
    kind: integer(1),
    default: 100,
    hosts: BOTH,
    flag: { name: 'max-iterations' },
    description: 'Maximum agent steps per run before Logbook stops and asks.',
  }),
  setting({
    key: 'maxToolCallsPerReply',
    kind: integer(1),
    default: 32,
    hosts: BOTH,
    env: ['LOGBOOK_MAX_TOOL_CALLS'],
    flag: { name: 'max-tool-calls' },
    description:
      'Tool calls of one model reply that may run. The calls past it are not run: the model is told so and can make them again later.',
  }),
  setting({
    key: 'budget.maxTokens',
    kind: orNull(integer(1)),
    default: null,
    hosts: BOTH,
    env: ['LOGBOOK_MAX_TOKENS'],
    description:
      'Stop a conversation once it has used this many tokens (prompt + completion). Empty for no limit.',
  }),
  setting({
    key: 'budget.maxCost',
    kind: orNull(decimal({ above: 0 })),
    default: null,
    hosts: BOTH,
    env: ['LOGBOOK_MAX_COST'],
    expect: 'a number of USD above 0',
    description:
      "Stop a conversation once its cost in USD exceeds this. Empty for no limit. Counted from the provider's reported cost or `#logbook.model.pricing#`; for a model with neither, the chat says the cap cannot count it and `#logbook.budget.maxTokens#` is what limits the run.",
  }),
  setting({
    key: 'agent.defaultMode',
    kind: choice(['act', 'plan']),
    default: 'act',
    hosts: VS,
    description:
      'The mode a new conversation starts in. Switch any conversation with the Plan/Act toggle under the message box.',
  }),
  setting({
    key: 'condenser.maxSize',
    kind: integer(10),
    default: 120,
    hosts: VS,
    description: "Summarize older history once the agent's view holds this many events.",
  }),
  setting({
    key: 'condenser.keepFirst',
    kind: integer(0),
    default: 4,
    hosts: VS,
    description: 'Events at the start of a conversation that are never summarized away (the task).',
  }),
  setting({
    key: 'terminal.timeoutSeconds',
    kind: integer(1, 600),
    default: 30,
    hosts: VS,
    description:
      'How long a command may run before the agent gets its output so far (the command keeps running).',
  }),
  setting({
    key: 'terminal.passEnvironment',
    kind: variableNames(),
    default: [],
    hosts: BOTH,
    guards: true,
    env: ['LOGBOOK_PASS_ENV'],
    flag: { name: 'pass-env' },
    adds: true,
    expect: 'variable names',
    description:
      "Environment variables of Logbook's own that the agent's terminal may see. By default the agent's shell starts without `OPENAI_API_KEY`, any `LOGBOOK_*` variable or any variable holding the API key, so a command like `env` cannot reveal the key; list a name here (e.g. `LOGBOOK_PROFILE`) to pass it on anyway. The key is still redacted from everything the agent records.",
  }),
  ...SANDBOX_SETTINGS,
  setting({
    key: 'checkpoints.enabled',
    kind: flag(),
    default: true,
    hosts: BOTH,
    env: ['LOGBOOK_CHECKPOINTS'],
    flag: { name: 'no-checkpoints', sets: false },
    description:
      "Record the workspace's files before each action of the agent that can change them (file edits, terminal commands), so they can be restored to any point of a conversation. Kept in a store of Logbook's own outside the workspace; the workspace's `.git` is never touched.",
  }),
  setting({
    key: 'checkpoints.exclude',
    kind: list(/,/),
    default: [],
    hosts: BOTH,
    env: ['LOGBOOK_CHECKPOINTS_EXCLUDE'],
    description:
      'Patterns (as in `.gitignore`) of files checkpoints never hold, e.g. `build/` or `*.sqlite`: a restore leaves them as they are. Files `.gitignore` ignores are held too, up to 10,000 files and 100 MB in all; a folder over that (often `node_modules`) is not.',
  }),
  setting({
    key: 'checkpoints.maxFileSizeMB',
    kind: decimal({ above: 0 }),
    default: 5,
    hosts: BOTH,
    env: ['LOGBOOK_CHECKPOINTS_MAX_FILE_MB'],
    description:
      'Files larger than this are not recorded by checkpoints (and are listed as skipped); a restore leaves them as they are.',
  }),
  setting({
    key: 'mcp.servers',
    kind: object(
      lazySchema(() => z.record(z.string(), z.unknown())),
      'an object of MCP servers by name',
    ),
    default: {},
    hosts: VS,
    guards: true,
    description:
      'MCP servers whose tools the agent may use, by name, in the `mcpServers` shape of Claude Desktop and Cline: `{"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}` or `{"docs": {"url": "https://…/mcp", "headers": {"Authorization": "Bearer ${secret:docs}"}}}`. Servers start when a conversation runs and restart when their entry changes; none starts in an untrusted workspace. When commands run in Logbook\'s sandbox, a `command` server starts in it too (the workspace writable, nothing else; the network closed but for `logbook.sandbox.allowedHosts` and its own `allowedHosts`); `"sandbox": false` runs one outside. Add one with **Logbook: Add MCP Server**.',
  }),
  setting({
    key: 'hooks',
    kind: object(
      lazySchema(() => z.record(z.string(), z.unknown())),
      'an object of hook events, as in Claude Code',
    ),
    default: {},
    hosts: BOTH,
    guards: true,
    scope: 'machine',
    problems: (value) => {
      try {
        parseHooks(value, 'user');
        return [];
      } catch (err) {
        return [(err as Error).message];
      }
    },
    description:
      'Your own programs run before and after the agent\'s steps, in the shape of Claude Code\'s `hooks` setting: `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/check.sh", "timeout": 60}]}]}`. Events: PreToolUse (allow, deny, ask or rewrite an action), PostToolUse (context for the model), UserPromptSubmit, Stop, SubagentStop, PreCompact, SessionStart, SessionEnd, Notification. Hooks run outside the sandbox, as you, with a timeout; a PreToolUse hook that fails stops its action. A repository\'s `.claude/settings.json` and `.logbook/hooks.json` hooks run only once you accept them. See docs/HOOKS.md. A machine setting.',
  }),
  setting({
    key: 'tools.includeEditorTools',
    kind: flag(),
    default: false,
    hosts: VS,
    description:
      "Also offer the agent the tools other extensions contribute to the editor's language-model tools API (`vscode.lm.tools`). Their calls are logged like MCP tool calls and, since nothing says what such a tool does, rated MEDIUM: in the default `risky` mode each one asks first. Needs VS Code 1.95 or later.",
  }),
  setting({
    key: 'web.allowPrivateAddresses',
    kind: flag(),
    default: false,
    hosts: BOTH,
    guards: true,
    scope: 'machine',
    env: ['LOGBOOK_WEB_ALLOW_PRIVATE'],
    description:
      "Let web fetches (the agent's `fetch` tool and a URL mentioned in the chat) reach loopback, private-network, link-local (such as the cloud metadata address `169.254.169.254`), shared and multicast addresses, and read `data:` URLs. Off: such targets, and redirects to them, are refused, so a page cannot lead a fetch into this machine or its network. A machine setting.",
  }),
  setting({
    key: 'web.allowedHosts',
    kind: list(),
    default: [],
    hosts: BOTH,
    guards: true,
    scope: 'machine',
    env: ['LOGBOOK_WEB_ALLOW_HOSTS'],
    adds: true,
    description:
      "Hosts whose pages are fetched without asking (by the agent's `fetch` tool, rated LOW, or when a URL is mentioned), e.g. `docs.python.org`, or `*.example.com` for a domain and its subdomains. Any other host is rated MEDIUM, so in the default `risky` mode a fetch from it asks first. Their addresses are checked all the same (see `logbook.web.allowPrivateAddresses`). A machine setting.",
  }),
  setting({
    key: 'remote.servers',
    kind: list(),
    default: [],
    hosts: ['vscode'],
    scope: 'machine',
    description:
      "The agent-servers (OpenHands) that **Logbook: Start Agent Task on Server…** offers, newest first; a URL typed there is added. Each server's session key is kept in the editor's secret storage, asked for once, never in settings. A machine setting: a repository cannot add a server to the list.",
  }),
  setting({
    key: 'web.searxngUrl',
    kind: text(),
    default: '',
    hosts: BOTH,
    guards: true,
    scope: 'machine',
    env: ['LOGBOOK_SEARXNG_URL'],
    problems: (value) =>
      value === '' || /^https?:\/\/[^\s/@]+(\/\S*)?$/.test(value) ? [] : ['must be an http or https URL'],
    description:
      'The address of a SearXNG instance (e.g. `http://localhost:8888`, with `json` among its `search.formats`): the agent gets a `web_search` tool that asks it and lists titles, URLs and snippets. Empty: no search tool (an MCP search server can give one, see docs/MCP.md). The instance may be on this machine or its network; the pages it finds are fetched under the usual address rules. A machine setting.',
  }),
  setting({
    key: 'demo',
    kind: flag(),
    default: false,
    hosts: CLI,
    env: ['LOGBOOK_DEMO'],
    flag: { name: 'demo', sets: true },
    description:
      'Talk to the built-in demo model (a scripted walkthrough served on 127.0.0.1 while the command runs) instead of an endpoint.',
  }),
  setting({
    key: 'mcp.configFile',
    kind: orNull(text()),
    default: null,
    hosts: CLI,
    guards: true,
    flag: { name: 'mcp-config' },
    description:
      'A file of MCP servers in the `{"mcpServers": {...}}` shape of Claude Desktop and Cline. `run` records it, so `approve`, `reject` and `resolve` start the same servers.',
  }),
  setting({
    key: 'acp.agents',
    kind: object(
      lazySchema(() =>
        z.record(
          z.string().regex(/^[\w.-]{1,64}$/),
          z
            .object({
              command: z.string().min(1),
              args: z.array(z.string()).optional(),
              env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).optional(),
              allowedHosts: z.array(z.string().min(1)).optional(),
            })
            .strict(),
        ),
      ),
      'an object of agents by name, each {"command", "args", "env", "allowedHosts"}',
    ),
    default: {},
    hosts: BOTH,
    guards: true,
    env: ['LOGBOOK_ACP_AGENTS'],
    description:
      'External Agent Client Protocol agents that `logbook run --agent NAME` and **Logbook: Start Agent Task with…** can run instead of Logbook\'s own loop, by name: `{"gemini": {"command": "gemini", "args": ["--acp"], "env": ["GEMINI_API_KEY"], "allowedHosts": ["generativelanguage.googleapis.com"]}}`. The agent starts in the sandbox (the workspace writable; the network closed but for `sandbox.allowedHosts` and its own `allowedHosts`); `env` names the variables of your environment it gets. Only your own config file or environment can name one; its permission requests, reads, writes and commands go through the confirmation policy. None starts in an untrusted workspace. See `docs/ACP.md`.',
  }),
  setting({
    key: 'acp.replyTimeoutSeconds',
    kind: integer(1, 86_400),
    default: 600,
    hosts: BOTH,
    env: ['LOGBOOK_ACP_REPLY_TIMEOUT'],
    description:
      'Seconds an external ACP agent may say nothing (starting, or in a turn; not while you confirm) before its turn is cancelled with an error. The next message goes on with it.',
  }),
  setting({
    key: 'checkpoints.dir',
    kind: orNull(text()),
    default: null,
    hosts: CLI,
    env: ['LOGBOOK_CHECKPOINTS_DIR'],
    description:
      'Where the CLI keeps the checkpoint stores, one per workspace. Empty: `$XDG_STATE_HOME/logbook/checkpoints` (`~/.local/state/logbook/checkpoints`).',
  }),
  setting({
    key: 'worktrees.dir',
    kind: orNull(text()),
    default: null,
    hosts: CLI,
    env: ['LOGBOOK_WORKTREES_DIR'],
    description:
      'Where `logbook run --worktree` makes the worktrees of tasks, their records and their logs, one folder per repository, outside every working tree. Empty: `$XDG_DATA_HOME/logbook/worktrees` (`~/.local/share/logbook/worktrees`). See `docs/WORKTREES.md`.',
  }),
  setting({
    key: 'worktrees.setup',
    kind: orNull(text()),
    default: null,
    hosts: CLI,
    guards: true,
    env: ['LOGBOOK_WORKTREES_SETUP'],
    description:
      "A command run in a new worktree task's worktree before the agent starts (e.g. `npm ci`), in the sandbox, recorded in the task's log; a failure stops the task before the agent. A repository's own `.logbook/worktree-setup` runs after it once you accepted it (asked again when it changes). See `docs/WORKTREES.md`.",
  }),
  setting({
    key: 'checkpoints.maxFiles',
    kind: integer(1),
    default: 100000,
    hosts: CLI,
    env: ['LOGBOOK_CHECKPOINTS_MAX_FILES'],
    description:
      'A workspace with more files than this is not checkpointed (the agent goes on, and says so).',
  }),
  setting({
    key: 'signing.keyFile',
    kind: orNull(text()),
    default: null,
    hosts: CLI,
    env: ['LOGBOOK_SIGNING_KEY'],
    description:
      'The Ed25519 key the CLI signs every event with, created when missing. Empty: `$XDG_CONFIG_HOME/logbook/signing-key.pem` (`~/.config/logbook/signing-key.pem`).',
  }),
  setting({
    key: 'sandbox.bwrap',
    kind: orNull(text()),
    default: null,
    hosts: CLI,
    guards: true,
    env: ['LOGBOOK_BWRAP'],
    description: 'Another bubblewrap program than the `bwrap` on `PATH` (a build of your own, say).',
  }),
];

export const SETTINGS_BY_KEY: ReadonlyMap<string, SettingDef> = new Map(SETTINGS.map((s) => [s.key, s]));
