// Every setting of Logbook, named once: its key (`logbook.KEY` in VS Code, `KEY` in the CLI's
// config file), kind, default and description, which hosts read it, its VS Code scope, and the
// environment variables and CLI flag that set it. package.json's `contributes.configuration` is
// checked against this list, and docs/SETTINGS.md is generated from it.
import { z } from 'zod';
import { parseHooks } from '../hooks/hook-config';
import { LLM_VARIABLES } from '../llm/environment-names';
import { readPriceTable } from '../llm/pricing';
import { REASONING_EFFORTS } from '../llm/request-hints';
import {
  choice,
  decimal,
  flag,
  integer,
  type Kind,
  list,
  object,
  orNull,
  text,
  variableNames,
} from './kinds';

export type Host = 'cli' | 'vscode';

export interface SettingDef<T = unknown> {
  key: string;
  kind: Kind<T>;
  default: T;
  /** Markdown; the same text VS Code's Settings editor shows. */
  description: string;
  hosts: readonly Host[];
  /** VS Code's scope when it is not `window` (`machine`: a repository's settings cannot change it). */
  scope?: 'machine';
  /**
   * The setting guards the user (what asks first, where the key goes, what runs, what the sandbox
   * and the web let through): only the user's own value counts, never a workspace's, unless the
   * user accepted that workspace's value by name (docs/SECURITY.md).
   */
  guards?: true;
  /** Environment variables, the first one set wins. */
  env?: readonly string[];
  /** The CLI flag (and its other name); `sets` for a flag that takes no value. */
  flag?: { name: string; alias?: string; sets?: T };
  /** A list whose file, environment and flag values add up rather than replace each other. */
  adds?: true;
  /** Never read from a file nor shown: only from the environment (or VS Code's secret storage). */
  secret?: true;
  /** Further problems of a value of the right kind (strict reading only: VS Code keeps what it can). */
  problems?: (value: T) => string[];
  /** Overrides the kind's wording of a valid value, completing "must be …". */
  expect?: string;
}

function setting<T>(def: SettingDef<T>): SettingDef {
  return def as unknown as SettingDef;
}

const BOTH: readonly Host[] = ['cli', 'vscode'];
const VS: readonly Host[] = ['vscode'];
const CLI: readonly Host[] = ['cli'];

const PRICES_EXPECT =
  'JSON such as {"my-model":{"input":3,"cachedInput":0.3,"output":15}} (USD per 1M tokens)';

export const SETTINGS: readonly SettingDef[] = [
  setting({
    key: 'model.provider',
    kind: choice(['openai', 'vscode']),
    default: 'openai',
    hosts: VS,
    description:
      "Where the agent's model runs. Pick a model of either kind with **Logbook: Select Model**. With `vscode`, tokens are counted by the model's own tokenizer and the cost is unknown (only `logbook.budget.maxTokens` limits it).",
  }),
  setting({
    key: 'model.editorModel',
    kind: text(),
    default: '',
    hosts: VS,
    description:
      'The editor model used when `logbook.model.provider` is `vscode`: its id or its family (e.g. `gpt-4o`). Empty: the first model VS Code offers.',
  }),
  setting({
    key: 'model.baseURL',
    kind: text(),
    default: 'https://api.openai.com/v1',
    hosts: BOTH,
    guards: true,
    env: LLM_VARIABLES.baseUrl,
    description:
      "Base URL of an OpenAI-compatible Chat Completions endpoint, e.g. `http://localhost:11434/v1` for Ollama or `http://localhost:1234/v1` for LM Studio. The API key is not a setting: run **Logbook: Connect a Model** (endpoint, model and key) or **Logbook: Set API Key**, which keep it in VS Code's secret storage.",
  }),
  setting({
    key: 'model.apiKey',
    kind: text(),
    default: '',
    hosts: BOTH,
    env: LLM_VARIABLES.apiKey,
    secret: true,
    description:
      'The API key sent to the endpoint. Only from the environment in the CLI; VS Code keeps it in its secret storage (**Logbook: Set API Key**) and falls back to the environment. Never shown, never recorded.',
  }),
  setting({
    key: 'model.name',
    kind: text(),
    default: 'gpt-4o-mini',
    hosts: BOTH,
    env: LLM_VARIABLES.model,
    description: 'Model name sent with every request.',
  }),
  setting({
    key: 'model.temperature',
    kind: orNull(decimal({ min: 0 })),
    default: null,
    hosts: VS,
    description: "Sampling temperature; leave empty to use the endpoint's default.",
  }),
  setting({
    key: 'model.maxOutputTokens',
    kind: orNull(integer(1)),
    default: null,
    hosts: VS,
    description: "Upper bound on tokens the model may generate per reply; empty for the endpoint's default.",
  }),
  setting({
    key: 'model.extraHeaders',
    kind: object(z.record(z.string(), z.string()), 'an object of header names and text values'),
    default: {},
    hosts: VS,
    guards: true,
    description:
      'Extra HTTP headers sent with every request (for proxies or gateways). Do not put API keys here; use "Logbook: Set API Key".',
  }),
  setting({
    key: 'model.replyTimeoutSeconds',
    kind: integer(1),
    default: 600,
    hosts: BOTH,
    env: ['LOGBOOK_REPLY_TIMEOUT_SECONDS'],
    expect: 'a positive whole number of seconds',
    description:
      'Longest one model reply may take, from the request to its last chunk. A reply still streaming then is stopped and the step fails with a timeout error (it is not retried).',
  }),
  setting({
    key: 'model.maxReplyBytes',
    kind: integer(1),
    default: 4194304,
    hosts: BOTH,
    env: ['LOGBOOK_MAX_REPLY_BYTES'],
    expect: 'a positive whole number of bytes',
    description:
      'Largest model reply (text, reasoning and tool calls, in bytes; default 4 MiB). A reply that grows past it is stopped and the step fails with a timeout error (it is not retried).',
  }),
  setting({
    key: 'model.supportsImages',
    kind: flag(),
    default: true,
    hosts: VS,
    description:
      'Whether the model takes images. When on, images pasted or dropped into the message box (and image files the agent views) are sent as image content; when off, each is left out and the model reads a note saying an image was there. Turn it off for models without vision.',
  }),
  setting({
    key: 'model.reasoningEffort',
    kind: choice(['default', ...REASONING_EFFORTS]),
    default: 'default',
    hosts: BOTH,
    env: ['LOGBOOK_REASONING_EFFORT'],
    expect: `one of ${REASONING_EFFORTS.join(', ')} (or default: the endpoint decides)`,
    description:
      'How hard a reasoning model thinks before it answers (OpenAI `o*` and `gpt-5*`, and reasoning models on OpenRouter). `default` sends nothing and leaves it to the endpoint; models that do not reason may reject any other value.',
  }),
  setting({
    key: 'model.promptCaching',
    kind: choice(['auto', 'key', 'breakpoints', 'off']),
    default: 'auto',
    hosts: BOTH,
    env: ['LOGBOOK_PROMPT_CACHING'],
    description:
      "Prompt-cache hints sent with each request, so the long, unchanged start of a conversation is read from the provider's cache (cheaper and faster). Cached tokens are shown in the chat header. See `docs/llm-endpoints.md`.",
  }),
  setting({
    key: 'model.pricing',
    kind: object(z.record(z.string(), z.unknown()), PRICES_EXPECT),
    default: {},
    hosts: BOTH,
    env: ['LOGBOOK_PRICING'],
    problems: (value) => readPriceTable(value).problems,
    description:
      "Prices of models, in USD per million tokens, keyed by model name (a name also prices the names it starts: `gpt-4o` prices `gpt-4o-2024-08-06`). Added to, and over, the built-in prices of a few OpenAI models. A cost reported by the provider (OpenRouter's `usage.cost`) wins over a price. Without either, a model's cost is unknown: `#logbook.budget.maxCost#` cannot count it, and the chat says so.",
  }),
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
    kind: object(z.record(z.string(), z.unknown()), 'an object of MCP servers by name'),
    default: {},
    hosts: VS,
    guards: true,
    description:
      'MCP servers whose tools the agent may use, by name, in the `mcpServers` shape of Claude Desktop and Cline: `{"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}` or `{"docs": {"url": "https://…/mcp", "headers": {"Authorization": "Bearer ${secret:docs}"}}}`. Servers start when a conversation runs and restart when their entry changes; none starts in an untrusted workspace. When commands run in Logbook\'s sandbox, a `command` server starts in it too (the workspace writable, nothing else; the network closed but for `logbook.sandbox.allowedHosts` and its own `allowedHosts`); `"sandbox": false` runs one outside. Add one with **Logbook: Add MCP Server**.',
  }),
  setting({
    key: 'hooks',
    kind: object(z.record(z.string(), z.unknown()), 'an object of hook events, as in Claude Code'),
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
      'an object of agents by name, each {"command", "args", "env", "allowedHosts"}',
    ),
    default: {},
    hosts: CLI,
    guards: true,
    env: ['LOGBOOK_ACP_AGENTS'],
    description:
      'External Agent Client Protocol agents `logbook run --agent NAME` can run instead of Logbook\'s own loop, by name: `{"gemini": {"command": "gemini", "args": ["--acp"], "env": ["GEMINI_API_KEY"], "allowedHosts": ["generativelanguage.googleapis.com"]}}`. The agent starts in the sandbox (the workspace writable; the network closed but for `sandbox.allowedHosts` and its own `allowedHosts`); `env` names the variables of your environment it gets. Only your own config file or environment can name one; its permission requests, reads, writes and commands go through the confirmation policy. See `docs/ACP.md`.',
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
